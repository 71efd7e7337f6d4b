import type { Kysely } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { insertUser } from "../admin/users.repository.ts";
import type { Database } from "../db/connection.ts";
import { migrateToLatest } from "../db/migrate.ts";
import { openTestDatabase } from "../testing/test-database.ts";
import { bootstrapAdmin } from "./bootstrap-admin.ts";

let database: Database;
beforeEach(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database.db as unknown as Kysely<unknown>);
});
afterEach(() => database.close());

const model = { contexts: [] };
const options = {
  username: "admin",
  password: undefined,
  generate: () => "generated-secret-1",
  demo: false,
};

describe("first administrator", () => {
  it("is created with a generated password shown once, and only once", async () => {
    expect(await bootstrapAdmin(database.db, model, options)).toEqual({
      username: "admin",
      generatedPassword: "generated-secret-1",
    });
    expect(await bootstrapAdmin(database.db, model, options)).toBeUndefined();
    const admin = await database.db.selectFrom("app.users").selectAll().executeTakeFirstOrThrow();
    expect(admin).toMatchObject({
      username: "admin",
      isadmin: true,
      issuperadmin: true,
      isdev: true,
    });
    expect(admin.password_hash).toMatch(/^\$argon2id\$/);
  });

  it("is created even when users made with the CLI exist, as long as none is a super administrator", async () => {
    await insertUser(database.db, {
      username: "early",
      name: "Early",
      email: "e@x",
      passwordHash: "x",
    });
    expect((await bootstrapAdmin(database.db, model, options))?.username).toBe("admin");
  });

  it("explains what to do when the name is taken by a user who is not a super administrator", async () => {
    await insertUser(database.db, {
      username: "admin",
      name: "Plain",
      email: "e@x",
      passwordHash: "x",
    });
    await expect(bootstrapAdmin(database.db, model, options)).rejects.toThrow(
      /username 'admin' is taken: set ADMIN_USERNAME/,
    );
  });

  it("refuses an ADMIN_PASSWORD shorter than 8 characters", async () => {
    await expect(
      bootstrapAdmin(database.db, model, { ...options, password: "short" }),
    ).rejects.toThrow(/at least 8 characters/);
  });
});
