import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIG_HELP, ConfigError, loadConfig, serverHelp, wantsHelp } from "./config.ts";

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const c = loadConfig({}, []);
    expect(c.port).toBe(3000);
    expect(c.host).toBe("127.0.0.1");
    expect(c.dataDir).toBe(path.resolve("./data"));
    expect(c.connectionsDir).toBe(path.join(c.dataDir, "connections"));
    expect(c.wikiTarget).toBe(`git:${path.join(c.dataDir, "wiki")}`);
    expect(c.demo).toBe(true);
    expect(c.adminUsername).toBe("admin");
    expect(c.adminPassword).toBeUndefined();
    expect([c.sessionIdleMinutes, c.sessionMaxHours]).toEqual([30, 12]);
    expect(c.allowDestructiveModelChanges).toBe(false);
  });

  it("keeps the values .env.example sets at the defaults, so copying it changes nothing", () => {
    const example = readFileSync(new URL("../../../.env.example", import.meta.url), "utf8");
    const set = Object.fromEntries(
      example
        .split("\n")
        .filter((line) => /^[A-Z_]+=/.test(line))
        .map((line) => line.split(/=(.*)/s).slice(0, 2)),
    );
    expect(Object.keys(set)).toContain("UPLOAD_MAX_MB");
    expect(loadConfig(set, [], false)).toEqual(loadConfig({}, [], false));
    // And it names every variable, set or commented out.
    for (const name of Object.keys(CONFIG_HELP))
      expect(example).toMatch(new RegExp(`^(# )?${name}=`, "m"));
  });

  it("schedules backups of the embedded database only, with a valid cron expression", () => {
    expect(loadConfig({}, []).backup).toEqual({
      cron: undefined,
      dir: path.resolve("./data/backups"),
      keep: 7,
    });
    expect(loadConfig({ BACKUP_CRON: "0 3 * * *", BACKUP_KEEP: "3" }, []).backup).toMatchObject({
      cron: "0 3 * * *",
      keep: 3,
    });
    expect(() => loadConfig({ BACKUP_CRON: "every night" }, [])).toThrow(
      /BACKUP_CRON: a cron expression has 5 or 6 fields, not 2/,
    );
    expect(() =>
      loadConfig({ BACKUP_CRON: "0 3 * * *", DATABASE_URL: "postgres://127.0.0.1/x" }, []),
    ).toThrow(/BACKUP_CRON: backs up the embedded database; with DATABASE_URL, back PostgreSQL up/);
  });

  it("turns the demo off by default on PostgreSQL and reads the flag", () => {
    expect(loadConfig({ DATABASE_URL: "postgres://db/app" }, []).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: "postgres://db/app", DEMO: "1" }, []).demo).toBe(true);
    expect(loadConfig({}, ["--allow-destructive-model-changes"]).allowDestructiveModelChanges).toBe(
      true,
    );
  });

  it("keeps 100 statements prepared per PostgreSQL connection unless told, 0 for none", () => {
    expect(loadConfig({}, []).statementCache).toBe(100);
    expect(loadConfig({ DATABASE_STATEMENT_CACHE: "0" }, []).statementCache).toBe(0);
    expect(() => loadConfig({ DATABASE_STATEMENT_CACHE: "-1" }, [])).toThrow(
      /DATABASE_STATEMENT_CACHE/,
    );
  });

  it("runs four search statements at once unless told, one to ten", () => {
    expect(loadConfig({}, []).searchConnections).toBe(4);
    expect(loadConfig({ DATABASE_SEARCH_CONNECTIONS: "2" }, []).searchConnections).toBe(2);
    for (const refused of ["0", "11", "two"])
      expect(() => loadConfig({ DATABASE_SEARCH_CONNECTIONS: refused }, [])).toThrow(
        /DATABASE_SEARCH_CONNECTIONS/,
      );
  });

  it("logs readable lines on a terminal and JSON otherwise, in production, or when told", () => {
    expect(loadConfig({}, [], true).logFormat).toBe("pretty");
    expect(loadConfig({}, [], false).logFormat).toBe("json");
    expect(loadConfig({ NODE_ENV: "production" }, [], true).logFormat).toBe("json");
    expect(loadConfig({ LOG_FORMAT: "pretty" }, [], false).logFormat).toBe("pretty");
    expect(loadConfig({ LOG_FORMAT: "json" }, [], true).logFormat).toBe("json");
  });

  it("answers --help with every variable, and refuses a flag it does not know", () => {
    expect(wantsHelp(["--help"])).toBe(true);
    expect(wantsHelp([])).toBe(false);
    const help = serverHelp();
    for (const name of Object.keys(CONFIG_HELP))
      expect(help).toMatch(new RegExp(`^  ${name} `, "m"));
    expect(help).toContain("--allow-destructive-model-changes");
    expect(() => loadConfig({}, ["--allow-destructive-model-change"])).toThrow(
      /Unknown option '--allow-destructive-model-change'[\s\S]*See --help/,
    );
    expect(() => wantsHelp(["serve"])).toThrow(ConfigError);
  });

  it("takes a sender address alone or with a display name, and refuses anything else", () => {
    const from = (SMTP_FROM: string) =>
      loadConfig({ SMTP_HOST: "mail.example.com", SMTP_FROM }, []).smtp?.from;
    expect(from("ledgerline@example.com")).toBe("ledgerline@example.com");
    expect(from("Ledgerline <ledgerline@example.com>")).toBe("Ledgerline <ledgerline@example.com>");
    for (const bad of ["ledgerline", "Ledgerline <ledgerline>", "a <b@example.com> c"])
      expect(() => from(bad), bad).toThrow(/SMTP_FROM: an e-mail address, or a name/);
  });

  it("names every invalid variable", () => {
    const attempt = () =>
      loadConfig({ PORT: "eighty", ADMIN_PASSWORD: "short", NAV_HIDE: "upload,bogus" }, []);
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT: .*\n.*ADMIN_PASSWORD: .*\n.*NAV_HIDE\.1: /);
  });
});
