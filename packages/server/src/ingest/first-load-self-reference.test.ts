import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContextModel, EntityType } from "../model/model.ts";
import { findContext, findEntityType } from "../model/model.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { ingest } from "./ingest.service.ts";
import { IngestRejected, type IngestRow, rowChunks } from "./ingest-input.ts";
import { ANY_PROPOSAL } from "./proposal-rights.ts";

// A type whose records refer to records of the same type: its first load must not take the
// first-load path, where a row could refer to a row of an earlier chunk of the same file.
const TREE_MODEL = `name: tree
uiName: Tree
entityTypes:
  - name: node
    uiName: Node
    uiSequence: 1
    label: "{code}"
    approval: { upload: false, web: false }
    attributes:
      - { name: code, uiName: Code, dataType: String, identity: true, filter: true }
      - { name: parent, uiName: Parent, dataType: Reference, referencedEntityType: node, nullable: true }
`;

let t: TestApp;
let modelDir: string;
let context: ContextModel;
let node: EntityType;

beforeAll(async () => {
  modelDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-model-"));
  await fs.writeFile(path.join(modelDir, "tree.yaml"), TREE_MODEL);
  t = await createTestApp({ env: { MODEL_DIR: modelDir, DEMO: "0" } });
  context = findContext(t.prepared.model, "tree") as ContextModel;
  node = findEntityType(context, "node") as EntityType;
});
afterAll(async () => {
  await t.close();
  await fs.rm(modelDir, { recursive: true, force: true });
});

async function* nodes(count: number): AsyncGenerator<IngestRow> {
  for (let i = 0; i < count; i++)
    yield {
      rowNumber: i + 2,
      // The rows from the third chunk of 5,000 on name the first row as their parent.
      values: {
        code: `N${String(i).padStart(5, "0")}`,
        parent: i < 10_000 ? null : { ref: "N00000" },
      },
      problems: [],
    };
}

describe("the first load of a type that refers to itself", () => {
  it("goes through the diff: a row never refers to another row of the same file", async () => {
    const refused = await ingest(t.database.db, {
      copyRows: t.database.copyRows,
      loadTransaction: t.database.transaction,
      context,
      type: node,
      attributes: [...node.attributes],
      chunks: rowChunks(node, node.attributes, nodes(12_000)),
      columnName: (name) => name,
      deleteMissing: false,
      apply: true,
      dryRun: false,
      confirmMassMissing: false,
      source: "upload:tree",
      user: "admin",
      rights: ANY_PROPOSAL,
      maxRows: 1_000_000,
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IngestRejected);
    // Through the first-load path the first chunk, N00000 included, is written before the third
    // is resolved, and the file would be taken.
    expect((refused as IngestRejected).message).toContain(
      "row 10002, column 'parent': no Parent 'N00000'",
    );
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ${sql.table(`${context.schema}.node`)}`.execute(t.database.db);
    expect(rows[0].n).toBe(0);
  });
});
