import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { PGlite as PGlite04 } from "pglite-04";
import { pg_trgm as pgTrgm04 } from "pglite-04/contrib/pg_trgm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { prepare } from "../prepare.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { type Database, openDatabase, pgliteDatabase } from "./connection.ts";
import { VALUE_PARSERS } from "./value-parsers.ts";

const MODEL_DIR = path.resolve(import.meta.dirname, "../../../../model");

/** A data folder as the previous release left it: written by PGlite 0.4, prepared with the demo. */
async function oldDataFolder(dir: string): Promise<void> {
  const old = await PGlite04.create(dir, {
    extensions: { pg_trgm: pgTrgm04 },
    parsers: VALUE_PARSERS,
  });
  const query = async (
    text: string,
    params: readonly unknown[] = [],
    blob?: string | Uint8Array<ArrayBuffer>,
  ) => {
    const options = blob === undefined ? undefined : { blob: new Blob([blob]) };
    const result = await old.query(text, [...params], options);
    return { rows: result.rows as never[], affectedRows: result.affectedRows };
  };
  const database = pgliteDatabase({
    query,
    // The old engine's are planned at each run.
    prepared: query,
    // The old engine's statements all wait their turn.
    guest: async () => ({ admitted: false }),
    exec: async (text) => {
      await old.exec(text);
    },
    listen: async () => async () => undefined,
    pending: () => 0,
    close: async () => {
      await old.exec("checkpoint");
      await old.close();
    },
  });
  try {
    await prepare(database, config(dir));
  } finally {
    await database.close();
  }
}

function config(dir: string) {
  return loadConfig(
    {
      DATA_DIR: path.dirname(dir),
      MODEL_DIR,
      ADMIN_PASSWORD: "an-old-admin-password",
      DEMO: "1",
      LOG_LEVEL: "silent",
    },
    [],
  );
}

/** Row counts of every table of the app and of the demo's contexts, by name. */
async function tableCounts(database: Database): Promise<Record<string, number>> {
  const tables = await sql<{ name: string }>`
    select format('%I.%I', schemaname, tablename) as name from pg_tables
    where schemaname = 'app' or schemaname like 'ctx\\_%' order by 1`.execute(database.db);
  const counts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from ${sql.raw(name)}`.execute(database.db);
    counts[name] = rows[0].n;
  }
  return counts;
}

describe.skipIf(testDatabaseKind() === "postgres")("a data folder of PGlite 0.4", () => {
  let root: string;
  let dir: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-upgrade-"));
    dir = path.join(root, "pglite");
    await oldDataFolder(dir);
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it("is upgraded at the first open, keeping every row, and kept as a backup", async () => {
    const backup = `${dir}-pg17-backup`;
    const old = await PGlite04.create(dir, { extensions: { pg_trgm: pgTrgm04 } });
    const before = await old.query<{ n: number }>(
      "select count(*)::int as n from ctx_reference.country",
    );
    await old.close();

    const messages: string[] = [];
    const database = await openDatabase({ pgliteDir: dir, log: (m) => messages.push(m) });
    try {
      expect(messages).toEqual([
        `The embedded database in ${dir} was upgraded from PostgreSQL 17 to this PGlite; the old folder is kept as ${backup}`,
      ]);
      const { rows } = await sql<{
        v: string;
      }>`select current_setting('server_version') as v`.execute(database.db);
      expect(rows[0].v).toMatch(/^18\./);
      const counts = await tableCounts(database);
      expect(counts["ctx_reference.country"]).toBe(before.rows[0].n);
      expect(counts["ctx_reference.country"]).toBeGreaterThan(200);
      expect(counts["app.users"]).toBe(1);
      // The start after it finds everything in place: no migration, no model change, no seed.
      const again = await prepare(database, config(dir));
      expect(again.migrations).toEqual([]);
      expect(again.syncActions).toEqual([]);
      expect(await tableCounts(database)).toEqual(counts);
      // Identity columns go on from where they were.
      await sql`insert into app.users (username, name, email, password_hash)
        values ('jane', 'Jane', 'jane@example.com', '')`.execute(database.db);
    } finally {
      await database.close();
    }
    expect((await fs.readFile(`${backup}/PG_VERSION`, "utf8")).trim()).toBe("17");
    expect((await fs.readFile(`${dir}/PG_VERSION`, "utf8")).trim()).toBe("18");

    const reopened: string[] = [];
    const next = await openDatabase({ pgliteDir: dir, log: (m) => reopened.push(m) });
    await next.close();
    expect(reopened).toEqual([]);
  }, 120_000);

  it("finishes an upgrade that stopped between its two renames", async () => {
    const first = await openDatabase({ pgliteDir: dir });
    await first.close();
    // As a start that stopped after restoring and moving the old folder aside leaves it.
    await fs.rename(dir, `${dir}.upgrading`);
    await fs.writeFile(`${dir}.upgrading/ledgerline-upgrade-complete`, "");

    const messages: string[] = [];
    const database = await openDatabase({ pgliteDir: dir, log: (m) => messages.push(m) });
    try {
      expect(messages).toHaveLength(1);
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from ctx_reference.country`.execute(database.db);
      expect(rows[0].n).toBeGreaterThan(200);
    } finally {
      await database.close();
    }
    await expect(fs.stat(`${dir}.upgrading`)).rejects.toThrow();
    await expect(fs.stat(`${dir}/ledgerline-upgrade-complete`)).rejects.toThrow();
  }, 120_000);
});
