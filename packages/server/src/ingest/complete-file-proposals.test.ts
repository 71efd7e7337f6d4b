import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { findContext, findEntityType } from "../model/model.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { ingest } from "./ingest.service.ts";
import { type IngestRow, rowChunks } from "./ingest-input.ts";
import { ANY_PROPOSAL } from "./proposal-rights.ts";
import type { IngestValue } from "./row-converter.ts";

// A complete file (deleteMissing) is the newer word on the records proposed new before it: those
// it no longer holds are withdrawn, in either way the ingest diffs a file.

let t: TestApp;
let context: ContextModel;
let currency: EntityType;

beforeAll(async () => {
  t = await createTestApp();
  context = findContext(t.prepared.model, "reference") as ContextModel;
  currency = findEntityType(context, "currency") as EntityType;
});
afterAll(() => t.close());

type Values = { code: string; name: string; minor_units: number | null };

function ingestCurrencies(
  db: Db,
  listed: readonly Values[],
  deleteMissing: boolean,
  source: string,
) {
  return ingestRecords(db, currency, listed, deleteMissing, source);
}

/** Ingests `listed`, each row's attributes those of the first, as proposals. */
function ingestRecords(
  db: Db,
  type: EntityType,
  listed: readonly Record<string, IngestValue>[],
  deleteMissing: boolean,
  source: string,
) {
  const attributes = Object.keys(listed[0]).map(
    (name) => type.attributes.find((a) => a.name === name) as EntityType["attributes"][number],
  );
  async function* rows(): AsyncGenerator<IngestRow> {
    for (const [i, values] of listed.entries()) yield { rowNumber: i + 2, values, problems: [] };
  }
  return ingest(db, {
    copyRows: t.database.copyRows,
    context,
    type,
    attributes,
    chunks: rowChunks(type, attributes, rows()),
    columnName: (name) => name,
    deleteMissing,
    apply: false,
    dryRun: false,
    confirmMassMissing: false,
    source,
    user: "steward",
    rights: ANY_PROPOSAL,
    maxRows: 1_000_000,
  });
}

/** The currencies proposed new, each with whether it is discontinued and its events' statuses. */
async function proposals() {
  const { rows } = await sql<{ code: string; deleted: boolean; statuses: string[] }>`
    select c.code, c.is_deleted as deleted,
           array(select e.status from app.events e where e.entity_type = 'currency'
                   and e.entity_key_id = c.entity_key_id order by e.event_id) as statuses
    from ctx_reference.currency c where c.is_pending_new order by c.code`.execute(t.database.db);
  return rows;
}

async function approvedCurrencies(): Promise<Values[]> {
  const { rows } = await sql<Values>`
    select code, name, minor_units from ctx_reference.currency
    where not is_deleted and not is_pending_new order by code`.execute(t.database.db);
  return rows;
}

describe("a complete file without a record proposed earlier", () => {
  it.each([
    ["while it is read", (work: (db: Db) => Promise<unknown>) => work(t.database.db)],
    [
      "staged in a caller's transaction",
      (work: (db: Db) => Promise<unknown>) => t.database.transaction(work),
    ],
  ])("withdraws its pending Add, the diff made %s", async (_way, run) => {
    const n = (await proposals()).length;
    const [kept, dropped] = [`W${n}`, `W${n + 1}`];
    const proposed = await ingestCurrencies(
      t.database.db,
      [kept, dropped].map((code) => ({ code, name: `Proposed ${code}`, minor_units: 2 })),
      false,
      "upload:earlier",
    );
    expect(proposed).toMatchObject({ added: 2, pending: 2 });
    const absent = (await proposals()).filter((p) => !p.deleted && p.code !== kept);
    expect(absent.map((p) => p.code)).toContain(dropped);
    const approved = await approvedCurrencies();

    // Every approved currency as it is, and one of the two proposals, changed.
    const file = [...approved, { code: kept, name: "Proposed again", minor_units: 1 }];
    const result = await run((db) => ingestCurrencies(db, file, true, "upload:complete"));
    expect(result).toMatchObject({ added: 1, missing: 0, pending: 1, superseded: absent.length });
    const after = new Map((await proposals()).map((p) => [p.code, p]));
    // Each absent one's waiting change superseded (the first case's kept one is the second's absent).
    for (const { code, statuses } of absent)
      expect(after.get(code)).toEqual({
        code,
        deleted: true,
        statuses: statuses.map((s) => (s === "pending" ? "superseded" : s)),
      });
    // The proposal the file holds again is proposed anew, and waits.
    expect(after.get(kept)).toEqual({
      code: kept,
      deleted: false,
      statuses: ["superseded", "pending"],
    });
    expect(await approvedCurrencies()).toEqual(approved);
  });

  it("leaves the proposals be when the file is not complete", async () => {
    const waiting = (await proposals()).filter((p) => !p.deleted);
    expect(waiting).toHaveLength(1);
    const result = await ingestCurrencies(
      t.database.db,
      (await approvedCurrencies()).slice(0, 3),
      false,
      "upload:partial",
    );
    expect(result).toMatchObject({ added: 0, changed: 0, missing: 0, superseded: 0 });
    expect((await proposals()).filter((p) => !p.deleted)).toEqual(waiting);
  });

  it("withdraws a record created on the web and waiting, its edit amending the Create", async () => {
    const admin = await t.login("admin", ADMIN_PASSWORD);
    const save = (action: "create" | "update", name: string) =>
      t.post(
        "/api/save",
        { context: "reference", entityType: "region", action, record: { code: "999", name } },
        admin,
      );
    expect((await save("create", "Proposed region")).json()).toMatchObject({ pending: true });
    expect((await save("update", "Proposed region, renamed")).json()).toMatchObject({
      pending: true,
    });
    const region = findEntityType(context, "region") as EntityType;
    const { rows: approved } = await sql<{ code: string; name: string }>`
      select code, name from ctx_reference.region where not is_deleted and not is_pending_new
      order by code`.execute(t.database.db);
    const result = await ingestRecords(t.database.db, region, approved, true, "upload:regions");
    expect(result).toMatchObject({ added: 0, changed: 0, missing: 0, superseded: 1 });
    const { rows } = await sql<{ deleted: boolean; action: string; status: string }>`
      select r.is_deleted as deleted, e.action, e.status from ctx_reference.region r
      join app.events e on e.entity_type = 'region' and e.entity_key_id = r.entity_key_id
      where r.code = '999'`.execute(t.database.db);
    expect(rows).toEqual([{ deleted: true, action: "Create", status: "superseded" }]);
  });
});
