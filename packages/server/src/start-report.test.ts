import { describe, expect, it } from "vitest";
import { startBanner, summariseSeed, summariseSync } from "./start-report.ts";

const action = (description: string) => ({ description, destructive: false, sql: [] });

describe("summariseSync", () => {
  it("counts the actions of a first start by kind in one line", () => {
    const line = summariseSync([
      action("create schema ctx_reference"),
      action("create table ctx_reference.country"),
      action("create table ctx_reference.currency"),
      action("create unique index ctx_reference.country__identity"),
      action("create trigram index ctx_reference.country__name__trgm"),
      action("add foreign key ctx_reference.country.currency -> ctx_reference.currency"),
      action("change type of ctx_reference.country.population from text to numeric"),
    ]);
    expect(line).toBe(
      "model sync: 7 changes applied (create schema, create table x2, create index x2, add foreign key, change type of)",
    );
  });

  it("says the database matches when there is nothing to do", () => {
    expect(summariseSync([])).toBe("model sync: the database matches the model");
  });
});

describe("summariseSeed", () => {
  it("lists the seeded types in one line, and nothing when none were seeded", () => {
    expect(summariseSeed([{ context: "reference", entityType: "currency", rows: 179 }])).toBe(
      "seeded records: 179 reference.currency",
    );
    expect(summariseSeed([])).toBeUndefined();
  });
});

describe("startBanner", () => {
  const config = {
    databaseUrl: undefined,
    dataDir: "/srv/ll/data",
    demo: true,
    adminUsername: "admin",
  };

  it("shows the address, the generated password of a first start and where the data lives", () => {
    const banner = startBanner(config, "http://127.0.0.1:3000", {
      admin: { username: "admin", generatedPassword: "s3cret-once" },
      adminActive: true,
    });
    expect(banner).toContain("Ledgerline is ready: open http://127.0.0.1:3000");
    expect(banner).toContain("'admin' with the password s3cret-once");
    expect(banner).toContain("embedded database in /srv/ll/data (with the demo applications)");
  });

  it("points to ADMIN_PASSWORD on later starts and never shows a database password", () => {
    const banner = startBanner(
      {
        ...config,
        demo: false,
        databaseUrl: "postgres://ledger:hunter2@db.internal:5432/ledgerline",
      },
      "http://0.0.0.0:8080",
      { admin: undefined, adminActive: true },
    );
    expect(banner).toContain("with ADMIN_PASSWORD or the password of the first start");
    expect(banner).toContain("PostgreSQL db.internal:5432/ledgerline");
    expect(banner).not.toContain("hunter2");
    expect(banner).not.toContain("with the password");
  });

  it("does not send anyone to ADMIN_USERNAME once that user was removed or is no longer a super administrator", () => {
    const banner = startBanner(config, "http://127.0.0.1:3000", {
      admin: undefined,
      adminActive: false,
    });
    expect(banner).toContain(
      "Sign in:  with a super administrator's account ('admin', ADMIN_USERNAME, is no longer one)",
    );
    expect(banner).not.toContain("ADMIN_PASSWORD");
  });
});
