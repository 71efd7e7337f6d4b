import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMetadataSource, dictionaryClient } from "../publish/testing/dictionary.ts";
import {
  createSourceDatabase,
  SOURCE_SERVER_URL,
  type SourceDatabase,
  sourceServerReachable,
  writeConnectionFile,
} from "../testing/source-database.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";

const reachable = await sourceServerReachable();

// Two tables never analysed, so 'Profile columns' samples them: 'gone' first, being dropped.
const SETUP = [
  "create schema shop",
  "create table shop.gone (id int primary key, name text)",
  "create table shop.kept (id int primary key, name text)",
  "insert into shop.gone values (1, 'a'), (2, 'b')",
  "insert into shop.kept values (1, 'x'), (2, 'y')",
];

let t: TestApp;
let source: SourceDatabase;
let admin: string;
let sourceKey: number;

const importNow = () =>
  t.post("/data-dictionary/import-metadata-from-source", { EntityKeyID: sourceKey }, admin);

describe.skipIf(!reachable)("a table dropped while its source is imported", () => {
  beforeAll(async () => {
    const connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-dropped-"));
    source = await createSourceDatabase(SETUP);
    await writeConnectionFile(connectionsDir, "shop.conf", source);
    t = await createTestApp({ env: { CONNECTIONS_DIR: connectionsDir } });
    admin = await t.login("admin", ADMIN_PASSWORD);
    sourceKey = await createMetadataSource(
      dictionaryClient(t, admin),
      { name: "Dropping shop", connectionfile: "shop.conf" },
      { profilecolumns: true },
    );
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
  });

  it("imports the catalog as it was read, leaves the gone table unprofiled, and the next run works", async () => {
    const url = new URL(SOURCE_SERVER_URL);
    url.pathname = `/${source.name}`;
    const dropper = new pg.Client({ connectionString: url.toString() });
    await dropper.connect();
    try {
      // The drop holds its lock until it commits: the import's sample of the table waits for it.
      await dropper.query("begin");
      await dropper.query("drop table shop.gone");
      // Started now (an injected request starts when awaited).
      const imported = (async () => importNow())();
      await expect
        .poll(
          async () => {
            // Inside a transaction the activity is a snapshot unless cleared.
            await dropper.query("select pg_stat_clear_snapshot()");
            const { rows } = await dropper.query(
              `select count(*)::int as n from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock'`,
            );
            return rows[0].n;
          },
          { timeout: 20_000, interval: 100 },
        )
        .toBe(1);
      await dropper.query("commit");
      const res = await imported;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Msg).toMatch(/; \d+ columns profiled$/);
    } finally {
      await dropper.end();
    }
    const profiles = await t.database.db
      .selectFrom("app.column_profiles")
      .select(["object_name", "column_name", "method"])
      .where("object_name", "in", ["gone", "kept"])
      .orderBy("object_name")
      .orderBy("column_name")
      .execute();
    expect(profiles).toEqual([
      { object_name: "gone", column_name: "id", method: "none" },
      { object_name: "gone", column_name: "name", method: "none" },
      { object_name: "kept", column_name: "id", method: "sample" },
      { object_name: "kept", column_name: "name", method: "sample" },
    ]);

    // The next run reads the source as it is now, and works.
    const again = await importNow();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().Msg).toMatch(/^metadata imported: 1 data object \(/);
  });
});
