import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { findContext, findEntityType } from "../model/model.ts";
import { MIN_BULK_ROWS } from "../records/index-rebuild.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { ingest } from "./ingest.service.ts";
import { type IngestInput, type IngestRow, rowChunks } from "./ingest-input.ts";
import { ANY_PROPOSAL } from "./proposal-rights.ts";

// Two types ingested in one transaction, as a metadata import writes its data objects and then
// their data elements: the second bulk write's foreign key to the first type is checked once,
// after the write (writeWithForeignKeysAfter), and is there again afterwards.
const SHELF_MODEL = `name: shelf
uiName: Shelf
entityTypes:
  - name: box
    uiName: Box
    uiSequence: 1
    label: "{code}"
    approval: { upload: true, web: false }
    attributes:
      - { name: code, uiName: Code, dataType: String, identity: true, filter: true }
  - name: item
    uiName: Item
    uiSequence: 2
    label: "{code}"
    approval: { upload: true, web: false }
    attributes:
      - { name: box, uiName: Box, dataType: Reference, referencedEntityType: box, identity: true, filter: true }
      - { name: code, uiName: Code, dataType: String, identity: true, filter: true }
`;

let t: TestApp;
let modelDir: string;
let context: ContextModel;
let box: EntityType;
let item: EntityType;

beforeAll(async () => {
  modelDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-model-"));
  await fs.writeFile(path.join(modelDir, "shelf.yaml"), SHELF_MODEL);
  t = await createTestApp({ env: { MODEL_DIR: modelDir, DEMO: "0" } });
  context = findContext(t.prepared.model, "shelf") as ContextModel;
  box = findEntityType(context, "box") as EntityType;
  item = findEntityType(context, "item") as EntityType;
});
afterAll(async () => {
  await t.close();
  await fs.rm(modelDir, { recursive: true, force: true });
});

const code = (i: number) => `C${String(i).padStart(5, "0")}`;

async function* rows(
  count: number,
  values: (i: number) => IngestRow["values"],
): AsyncGenerator<IngestRow> {
  for (let i = 0; i < count; i++) yield { rowNumber: i + 2, values: values(i), problems: [] };
}

const input = (type: EntityType, chunks: IngestInput["chunks"]): IngestInput => ({
  copyRows: t.database.copyRows,
  context,
  type,
  attributes: [...type.attributes],
  chunks,
  columnName: (name) => name,
  deleteMissing: false,
  apply: false,
  dryRun: false,
  confirmMassMissing: false,
  source: "import:shelf",
  user: "admin",
  rights: ANY_PROPOSAL,
  maxRows: 1_000_000,
});

/** The oid of the items' foreign key to boxes: a new one after the key was dropped and added. */
const itemKey = async (db: Db) => {
  const { rows: keys } = await sql<{ oid: number; validated: boolean }>`
    select oid::int as oid, convalidated as validated from pg_constraint
    where conrelid = ${`${context.schema}.item`}::regclass and confrelid = ${`${context.schema}.box`}::regclass`.execute(
    db,
  );
  return keys;
};

describe("a bulk write referring to a type its transaction bulk-wrote first", () => {
  it("checks its references after the write, and keeps the foreign key", async () => {
    const [before] = await itemKey(t.database.db);
    const written = await t.database.transaction(async (tx) => {
      const boxes = rows(MIN_BULK_ROWS, (i) => ({ code: code(i) }));
      await ingest(tx, input(box, rowChunks(box, box.attributes, boxes)));
      // Each item in a box of its own, by the box's key, as the import refers to its objects.
      const { rows: boxKeys } = await sql<{ key: number }>`
        select entity_key_id::int as key from ${sql.table(`${context.schema}.box`)}`.execute(tx);
      const items = rows(MIN_BULK_ROWS, (i) => ({ box: boxKeys[i].key, code: "I" }));
      return ingest(tx, input(item, rowChunks(item, item.attributes, items)));
    });
    expect(written).toMatchObject({ rows: MIN_BULK_ROWS, added: MIN_BULK_ROWS });
    const [after] = await itemKey(t.database.db);
    expect(after.validated).toBe(true);
    expect(after.oid).not.toBe(before.oid);
    const { rows: joined } = await sql<{ n: number }>`
      select count(distinct b.entity_key_id)::int as n from ${sql.table(`${context.schema}.item`)} i
      join ${sql.table(`${context.schema}.box`)} b on b.entity_key_id = i.box`.execute(
      t.database.db,
    );
    expect(joined[0].n).toBe(MIN_BULK_ROWS);
  });
});
