import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_BULK_ROWS } from "../records/index-rebuild.ts";
import { listRecords } from "../testing/records-client.ts";
import {
  createSourceDatabase,
  type SourceDatabase,
  sourceServerReachable,
  writeConnectionFile,
} from "../testing/source-database.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { dictionaryContext } from "./dictionary-model.ts";

// The first import of a large source writes its data elements with the table's indexes dropped
// (writeWithIndexRebuild). The unique ones are built again before the commit; the others after
// it, and the answer does not wait for them.

const DD = "Data Dictionary";
const TABLES = 200;
const COLUMNS = 52;
const reachable = await sourceServerReachable();

let t: TestApp;
let source: SourceDatabase;
let connectionsDir: string;
let admin: string;
let sourceKey: number;

const indexesOfElements = async (): Promise<string[]> => {
  const schema = dictionaryContext(t.prepared.model).schema;
  const { rows } = await sql<{ name: string }>`
    select indexname as name from pg_indexes
    where schemaname = ${schema} and tablename = 'dataelement' order by 1`.execute(t.database.db);
  return rows.map((r) => r.name);
};

describe.skipIf(!reachable)("the first import of a large source", () => {
  beforeAll(async () => {
    connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-connections-"));
    source = await createSourceDatabase([
      `do $$ begin for t in 1..${TABLES} loop
         execute format('create table public.t%s (%s)', t,
           (select string_agg(format('c%s text', c), ', ') from generate_series(1, ${COLUMNS}) c));
       end loop; end $$`,
    ]);
    t = await createTestApp({ env: { CONNECTIONS_DIR: connectionsDir } });
    admin = await t.login("admin", ADMIN_PASSWORD);
    await writeConnectionFile(connectionsDir, "big.conf", source);
    const keyOf = async (entityType: string, name: string) =>
      (
        await listRecords(t, admin, {
          context: DD,
          entityType,
          rowConstraints: [{ attribute: "name", operator: "=", values: [name] }],
        })
      ).data[0].entityKeyID;
    const save = async (entityType: string, record: object) => {
      const res = await t.post(
        "/api/save",
        { context: DD, entityType, record, action: "create" },
        admin,
      );
      expect(res.statusCode, res.body).toBe(200);
      return res.json().entityKeyID as number;
    };
    const environment = await save("systemenvironment", {
      name: "Big DB",
      description: "Many columns",
      technology: "postgres",
      connectionfile: "big.conf",
    });
    sourceKey = await save("metadatasource", {
      application: await keyOf("application", "Demo"),
      applicationaspect: await keyOf("applicationaspect", "Operational"),
      systemenvironment: environment,
      name: "Big",
      description: "Many columns",
      importfrequency: "0 3 * * *",
    });
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await fs.rm(connectionsDir, { recursive: true, force: true });
  });

  it("answers with every column written and its key unique, then has every index again", async () => {
    expect(TABLES * COLUMNS).toBeGreaterThanOrEqual(MIN_BULK_ROWS);
    const before = await indexesOfElements();
    expect(before).toContain("dataelement__identity");
    const res = await t.post(
      "/data-dictionary/import-metadata-from-source",
      { EntityKeyID: sourceKey },
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Msg).toContain(
      `${TABLES * COLUMNS} data elements (${TABLES * COLUMNS} added, 0 changed`,
    );
    expect(await indexesOfElements()).toContain("dataelement__identity");
    for (let waited = 0; (await indexesOfElements()).length < before.length; waited += 100) {
      expect(waited, "the indexes are built again within 60 s").toBeLessThan(60_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(await indexesOfElements()).toEqual(before);
    const pending = await listRecords(t, admin, {
      context: DD,
      entityType: "dataelement",
      requirePending: true,
      rowConstraints: [{ attribute: "name", operator: "=", values: ["c52"] }],
      pageSize: 0,
    });
    expect(pending.data).toHaveLength(TABLES);
  });
});
