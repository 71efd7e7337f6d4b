import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContextModel, EntityType } from "../model/model.ts";
import { findContext, findEntityType } from "../model/model.ts";
import { worthRebuildingIndexes } from "../records/index-rebuild.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { type IngestRow, ingest } from "./ingest.service.ts";

// Enough rows to take the bulk path (indexes rebuilt after the insert) on the small demo table.
const BULK = 10_000;

let t: TestApp;
let context: ContextModel;
let currency: EntityType;
/** Demo currencies before the test's own. */
let seeded: number;

beforeAll(async () => {
  t = await createTestApp();
  context = findContext(t.prepared.model, "reference") as ContextModel;
  currency = findEntityType(context, "currency") as EntityType;
  seeded = (await typeCount()).actual;
});
afterAll(() => t.close());

async function* currencyRows(from: number, count: number): AsyncGenerator<IngestRow> {
  for (let i = from; i < from + count; i++)
    yield {
      rowNumber: i - from + 2,
      values: { code: `Z${String(i).padStart(6, "0")}`, name: `Currency ${i}`, minor_units: i % 4 },
      problems: [],
    };
}

function ingestCurrencies(from: number, count: number, apply: boolean) {
  return ingest(t.database.db, {
    context,
    type: currency,
    attributes: ["code", "name", "minor_units"].map(
      (name) =>
        currency.attributes.find((a) => a.name === name) as EntityType["attributes"][number],
    ),
    rows: currencyRows(from, count),
    columnName: (name) => name,
    deleteMissing: false,
    apply,
    dryRun: false,
    confirmMassMissing: false,
    source: "test",
    user: "admin",
    maxRows: 1_000_000,
  });
}

async function indexDefinitions(): Promise<string[]> {
  const { rows } = await sql<{ definition: string }>`
    select indexdef as definition from pg_indexes
    where schemaname = ${context.schema} and tablename = 'currency' order by indexname`.execute(
    t.database.db,
  );
  return rows.map((r) => r.definition);
}

async function typeCount(): Promise<{ counted: number; actual: number }> {
  const { rows } = await sql<{ counted: number; actual: number }>`
    select (select row_count from app.type_counts where context = 'reference' and entity_type = 'currency')::int as counted,
           (select count(*) from ctx_reference.currency where not is_deleted and not is_pending_new)::int as actual`.execute(
    t.database.db,
  );
  return rows[0];
}

async function stored(prefix: string) {
  const { rows } = await sql<{
    n: number;
    visible: number;
    linked: number;
    approved: number;
    pending: number;
  }>`
    select count(*)::int as n,
           count(*) filter (where not c.is_pending_new and not c.is_deleted)::int as visible,
           count(*) filter (where e.event_id = c.last_event_id and e.entity_key_id = c.entity_key_id)::int as linked,
           count(*) filter (where e.status = 'approved')::int as approved,
           count(*) filter (where e.status = 'pending')::int as pending
    from ${sql.table(`${context.schema}.currency`)} c
    left join app.events e on e.event_id = c.last_event_id
    where c.code like ${`${prefix}%`}`.execute(t.database.db);
  return rows[0];
}

describe("the ingest engine on a large batch of new records", () => {
  it("applies them with the indexes built again afterwards, each record pointing at its approved event", async () => {
    const before = await indexDefinitions();
    const result = await ingestCurrencies(0, BULK, true);
    expect(result).toMatchObject({ rows: BULK, added: BULK, applied: BULK, pending: 0 });
    expect(await indexDefinitions()).toEqual(before);
    expect(await stored("Z0")).toEqual({
      n: BULK,
      visible: BULK,
      linked: BULK,
      approved: BULK,
      pending: 0,
    });
    expect(await typeCount()).toEqual({ counted: BULK + seeded, actual: BULK + seeded });
    // The rebuilt unique index still refuses a second record with the same code.
    await expect(
      sql`insert into ctx_reference.currency (code, name, created_by, updated_by) values ('Z000001', 'twin', 'x', 'x')`.execute(
        t.database.db,
      ),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it("holds them as hidden proposals with pending events when approval is needed", async () => {
    const result = await ingestCurrencies(BULK, BULK * 2, false);
    expect(result).toMatchObject({ added: BULK * 2, applied: 0, pending: BULK * 2 });
    expect(await stored("Z02")).toEqual({
      n: 10_000,
      visible: 0,
      linked: 10_000,
      approved: 0,
      pending: 10_000,
    });
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from app.events
      where context = 'reference' and entity_type = 'currency' and status = 'pending' and action = 'Add'`.execute(
      t.database.db,
    );
    expect(rows[0].n).toBe(BULK * 2);
  });

  it("approves the proposals in one call, making every one visible and counted", async () => {
    const { rows } = await sql<{ id: number }>`
      select event_id::int as id from app.events
      where context = 'reference' and entity_type = 'currency' and status = 'pending'`.execute(
      t.database.db,
    );
    const admin = await t.login("admin", ADMIN_PASSWORD);
    const res = await t.post(
      "/api/approve",
      { context: "reference", entityType: "currency", entityEventIds: rows.map((r) => r.id) },
      admin,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: BULK * 2, conflicts: [] });
    expect(await stored("Z02")).toEqual({
      n: 10_000,
      visible: 10_000,
      linked: 10_000,
      approved: 10_000,
      pending: 0,
    });
    expect(await typeCount()).toEqual({ counted: BULK * 3 + seeded, actual: BULK * 3 + seeded });
  });
});

describe("worthRebuildingIndexes", () => {
  it("rebuilds only for a write of at least 10,000 rows that is as large as the table", async () => {
    await sql`analyze ctx_reference.currency`.execute(t.database.db);
    const rows = await typeCount();
    const worth = (n: number) =>
      worthRebuildingIndexes(t.database.db, context.schema, "currency", n);
    expect(await worth(9_999)).toBe(false);
    expect(await worth(rows.actual - 1)).toBe(false);
    expect(await worth(rows.actual)).toBe(true);
  });
});
