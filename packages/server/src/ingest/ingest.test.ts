import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { findContext, findEntityType } from "../model/model.ts";
import { buildIndexes, writeWithIndexRebuild } from "../records/index-rebuild.ts";
import { whileAnotherSessionReads } from "../testing/reading-session.ts";
import { tableIndexes, withoutOids } from "../testing/table-indexes.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { ingest } from "./ingest.service.ts";
import { type IngestInput, IngestRejected, type IngestRow, rowChunks } from "./ingest-input.ts";
import { ANY_PROPOSAL } from "./proposal-rights.ts";

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

async function* currencyRows(from: number, count: number, name: string): AsyncGenerator<IngestRow> {
  for (let i = from; i < from + count; i++)
    yield {
      rowNumber: i - from + 2,
      values: { code: `Z${String(i).padStart(6, "0")}`, name: `${name} ${i}`, minor_units: i % 4 },
      problems: [],
    };
}

function ingestCurrencies(
  from: number,
  count: number,
  apply: boolean,
  {
    name = "Currency",
    source = "test",
    db = t.database.db,
    rows = currencyRows(from, count, name),
    loadTransaction,
  }: {
    name?: string;
    source?: string;
    db?: Db;
    rows?: AsyncIterable<IngestRow>;
    loadTransaction?: IngestInput["loadTransaction"];
  } = {},
) {
  const attributes = ["code", "name", "minor_units"].map(
    (name) => currency.attributes.find((a) => a.name === name) as EntityType["attributes"][number],
  );
  return ingest(db, {
    copyRows: t.database.copyRows,
    context,
    type: currency,
    attributes,
    chunks: rowChunks(currency, attributes, rows),
    columnName: (name) => name,
    deleteMissing: false,
    apply,
    dryRun: false,
    confirmMassMissing: false,
    source,
    user: "admin",
    rights: ANY_PROPOSAL,
    maxRows: 1_000_000,
    loadTransaction,
  });
}

const indexes = () => tableIndexes(t.database.db, "ctx_reference.currency");

/** How many earlier versions the history holds of the currencies whose code is like `pattern`. */
async function versionsOf(pattern: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ctx_reference.currency__history where code like ${pattern}`.execute(
    t.database.db,
  );
  return rows[0].n;
}

async function keepVersionsTrigger(): Promise<{ enabled: string }[]> {
  const { rows } = await sql<{ enabled: string }>`
    select tgenabled as enabled from pg_trigger
    where tgrelid = 'ctx_reference.currency'::regclass and tgname = 'keep_versions'`.execute(
    t.database.db,
  );
  return rows;
}
const historyOf = () => tableIndexes(t.database.db, "ctx_reference.currency__history");

async function eventCount(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from app.events`.execute(
    t.database.db,
  );
  return rows[0].n;
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
    const before = await indexes();
    const result = await ingestCurrencies(0, BULK, true);
    expect(result).toMatchObject({ rows: BULK, added: BULK, applied: BULK, pending: 0 });
    const after = await indexes();
    expect(withoutOids(after)).toEqual(withoutOids(before));
    // Every secondary index was built again; the primary key stayed.
    const kept = after.filter((a) => before.some((b) => b.oid === a.oid)).map((a) => a.name);
    expect(kept).toEqual(["currency_pkey"]);
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
    const historyIndexes = withoutOids(await historyOf());
    const res = await t.post(
      "/api/approve",
      { context: "reference", entityType: "currency", entityEventIds: rows.map((r) => r.id) },
      admin,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ count: BULK * 2, conflicts: [] });
    // The history held fewer versions than the approval copied: its indexes were dropped for the
    // write and are built again after the answer.
    for (let waited = 0; waited < 60_000; waited += 100) {
      if (JSON.stringify(withoutOids(await historyOf())) === JSON.stringify(historyIndexes)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(withoutOids(await historyOf())).toEqual(historyIndexes);
    expect(await stored("Z02")).toEqual({
      n: 10_000,
      visible: 10_000,
      linked: 10_000,
      approved: 10_000,
      pending: 0,
    });
    expect(await typeCount()).toEqual({ counted: BULK * 3 + seeded, actual: BULK * 3 + seeded });
    // Proposals have no earlier version to keep: none was written, and the history trigger keeps
    // the next change's.
    expect(await versionsOf("Z0%")).toBe(0);
    expect(await keepVersionsTrigger()).toEqual([{ enabled: "O" }]);
    await sql`update ctx_reference.currency set name = 'Changed', updated_at = clock_timestamp()
      where code = 'Z020000'`.execute(t.database.db);
    expect(await versionsOf("Z020000")).toBe(1);
  });
});

describe("writeWithIndexRebuild", () => {
  const touchAll = (n: number) => async (tx: typeof t.database.db) =>
    writeWithIndexRebuild(
      tx,
      context.schema,
      { table: "currency", history: "currency__history" },
      n,
      async () => {
        await sql`update ctx_reference.currency set name = name`.execute(tx);
        return "written";
      },
    );

  it("drops the indexes for a write of at least 10,000 rows as large as the table (and its history), else keeps them", async () => {
    const { actual } = await typeCount();
    const before = await indexes();
    const small = await t.database.db.transaction().execute(touchAll(9_999));
    expect(small).toEqual({ result: "written", indexes: [] });
    expect(await indexes()).toEqual(before);
    const almost = await t.database.db.transaction().execute(touchAll(actual - 1));
    expect(await indexes()).toEqual(before);
    // Only the history's, which holds fewer versions than that.
    expect(almost.indexes.every((d) => d.includes("currency__history"))).toBe(true);
    await buildIndexes(t.database.db, almost.indexes);
    // The history holds fewer versions than that: its indexes are dropped too.
    const historyBefore = await historyOf();
    const bulk = await t.database.db.transaction().execute(touchAll(actual));
    expect(bulk.result).toBe("written");
    // The unique index is built again inside the transaction; the others are left to build.
    const unique = before.filter((i) => i.definition.startsWith("CREATE UNIQUE"));
    expect(withoutOids(await indexes())).toEqual(withoutOids(unique));
    expect(await historyOf()).toEqual([]);
    expect([...bulk.indexes].sort()).toEqual(
      [...before, ...historyBefore]
        .filter((i) => !i.definition.startsWith("CREATE UNIQUE"))
        .map((i) => i.definition)
        .sort(),
    );
    await buildIndexes(t.database.db, bulk.indexes);
    const after = await indexes();
    expect(withoutOids(after)).toEqual(withoutOids(before));
    expect(after.filter((a) => before.some((b) => b.oid === a.oid))).toHaveLength(1);
    expect(withoutOids(await historyOf())).toEqual(withoutOids(historyBefore));
  });

  it.skipIf(testDatabaseKind() !== "postgres")(
    "keeps the indexes when another session holds the table",
    async () => {
      const { actual } = await typeCount();
      await whileAnotherSessionReads(
        t.database.url as string,
        "ctx_reference.currency",
        async () => {
          const before = await indexes();
          const started = Date.now();
          const { indexes: left } = await t.database.db.transaction().execute(touchAll(actual));
          expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
          expect(await indexes()).toEqual(before);
          // The history, which nobody reads, had its indexes dropped all the same.
          expect(left.every((d) => d.includes("currency__history"))).toBe(true);
          await buildIndexes(t.database.db, left);
        },
      );
    },
  );
});

describe("what the same source proposes again", () => {
  it("keeps its own identical pending changes and does not bring back refused ones", async () => {
    const first = await ingestCurrencies(0, 3, false, { name: "Renamed", source: "import:1" });
    expect(first).toMatchObject({ changed: 3, pending: 3 });
    const pending = async () =>
      (
        await sql<{ id: number; status: string }>`
          select event_id::int as id, status from app.events
          where source = 'import:1' order by event_id`.execute(t.database.db)
      ).rows;
    const proposed = await pending();
    const events = await eventCount();
    const again = await ingestCurrencies(0, 3, false, { name: "Renamed", source: "import:1" });
    expect(again).toMatchObject({ changed: 3, pending: 3 });
    expect(await eventCount()).toBe(events);
    expect(await pending()).toEqual(proposed);

    const admin = await t.login("admin", ADMIN_PASSWORD);
    const res = await t.post(
      "/api/reject",
      { context: "reference", entityType: "currency", entityEventIds: [proposed[0].id] },
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    const third = await ingestCurrencies(0, 3, false, { name: "Renamed", source: "import:1" });
    expect(third).toMatchObject({ changed: 3, pending: 2 });
    expect(await eventCount()).toBe(events);

    // Another source proposing the same thing supersedes, as a new upload does.
    const other = await ingestCurrencies(0, 3, false, { name: "Renamed", source: "upload:99" });
    expect(other).toMatchObject({ changed: 3, pending: 3 });
    expect((await pending()).map((e) => e.status)).toEqual([
      "rejected",
      "superseded",
      "superseded",
    ]);
  });
});

describe.skipIf(testDatabaseKind() !== "postgres")("an applied ingest racing a web edit", () => {
  it("fails with 409 and writes nothing when a record changed after the diff read it", async () => {
    const other = new pg.Client({ connectionString: t.database.url });
    await other.connect();
    try {
      await other.query("begin");
      await other.query(
        "update ctx_reference.currency set name = 'Raced', version = version + 1 where code = 'Z000005'",
      );
      const events = await eventCount();
      const running = ingestCurrencies(5, 1, true, { name: "Uploaded" });
      running.catch(() => undefined);
      // Commit the edit once the ingest waits for the record it read.
      for (let i = 0; i < 100; i++) {
        const { rows } = await other.query(
          "select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        );
        if (rows[0].n > 0) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await other.query("commit");
      const error = await running.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(IngestRejected);
      expect((error as IngestRejected).status).toBe(409);
      expect((error as IngestRejected).message).toMatch(
        /changed by someone else.*nothing was changed/,
      );
      expect(await eventCount()).toBe(events);
      const { rows } = await other.query(
        "select name from ctx_reference.currency where code = 'Z000005'",
      );
      expect(rows[0].name).toBe("Raced");
    } finally {
      await other.end();
    }
  });
});

describe("a file repeating a key", () => {
  async function* repeated(): AsyncGenerator<IngestRow> {
    yield* currencyRows(0, 3, "Once");
    for await (const row of currencyRows(1, 1, "Again")) yield { ...row, rowNumber: 5 };
  }

  it("is refused inside a caller's transaction, which stays usable", async () => {
    const before = await eventCount();
    await t.database.transaction(async (tx) => {
      const refused = await ingestCurrencies(0, 0, true, { db: tx, rows: repeated() }).catch(
        (e: unknown) => e,
      );
      expect(refused).toBeInstanceOf(IngestRejected);
      expect((refused as IngestRejected).message).toContain(
        "row 5, column 'code': the key 'Z000001' appears more than once (rows 3, 5)",
      );
      const { rows } = await sql<{ n: number }>`select 1 as n`.execute(tx);
      expect(rows).toEqual([{ n: 1 }]);
    });
    expect(await eventCount()).toBe(before);
  });
});

describe("the order of a file", () => {
  it("gives new records their keys, and their events, in the order of the rows", async () => {
    const result = await ingestCurrencies(70_000, 500, false, { source: "upload:order" });
    expect(result).toMatchObject({ added: 500, pending: 500 });
    const { rows } = await sql<{ code: string; key: number; event: number }>`
      select code, entity_key_id as key, last_event_id as event from ctx_reference.currency
      where code like 'Z07%' order by entity_key_id`.execute(t.database.db);
    const codes = rows.map((r) => r.code);
    expect(codes).toHaveLength(500);
    expect(codes).toEqual([...codes].sort());
    const events = rows.map((r) => r.event);
    expect(events).toEqual([...events].sort((a, b) => a - b));
  });
});

describe("an applied ingest replacing at least 10,000 record versions", () => {
  const versions = async () =>
    (
      await sql<{
        n: number;
      }>`select count(*)::int as n from ctx_reference.currency__history`.execute(t.database.db)
    ).rows[0].n;

  // Runs the ingest; answers whether the history's indexes were built again meanwhile.
  async function historyRebuilt(ingestRun: () => Promise<unknown>, copied: number) {
    const [before, held] = [await historyOf(), await versions()];
    await ingestRun();
    expect(await versions()).toBe(held + copied);
    const after = await historyOf();
    expect(withoutOids(after)).toEqual(withoutOids(before));
    expect(after.length).toBeGreaterThan(0);
    return after.every((a) => !before.some((b) => b.oid === a.oid));
  }

  it("copies them to a history holding fewer without its indexes, which are built again after the commit", async () => {
    const small = () => ingestCurrencies(0, 10, true, { name: "Few" });
    expect(await historyRebuilt(small, 10)).toBe(false);
    const large = () => ingestCurrencies(0, BULK, true, { name: "Renamed" });
    expect(await historyRebuilt(large, BULK)).toBe(true);
  });

  it.skipIf(testDatabaseKind() !== "postgres")(
    "does the same when the diff is written while the file is read",
    async () => {
      const { loadTransaction } = { loadTransaction: t.database.transaction };
      const large = () => ingestCurrencies(BULK, BULK * 2, true, { name: "Read", loadTransaction });
      expect(await historyRebuilt(large, BULK * 2)).toBe(true);
    },
  );
});

describe("approving a bulk of changes", () => {
  it("approves them in one call, keeping each record's version before them", async () => {
    const result = await ingestCurrencies(BULK, BULK, false, { name: "Proposed" });
    expect(result).toMatchObject({ changed: BULK, pending: BULK });
    const { rows } = await sql<{ id: number }>`
      select event_id::int as id from app.events
      where context = 'reference' and entity_type = 'currency' and status = 'pending'
        and new_values ->> 'name' like 'Proposed %'`.execute(t.database.db);
    const admin = await t.login("admin", ADMIN_PASSWORD);
    const res = await t.post(
      "/api/approve",
      { context: "reference", entityType: "currency", entityEventIds: rows.map((r) => r.id) },
      admin,
    );
    expect(res.json()).toMatchObject({ count: BULK, conflicts: [] });
    // Each changed record's version before the approval, valid until it, as it was.
    const { rows: kept } = await sql<{ versions: number; changed: number }>`
      select (select count(*) from ctx_reference.currency__history h
                join ctx_reference.currency c on c.entity_key_id = h.entity_key_id
                where c.code like 'Z01%' and h.valid_to = c.updated_at and h.version = c.version - 1
                  and h.name not like 'Proposed %')::int as versions,
             (select count(*) from ctx_reference.currency c
                where c.code like 'Z01%' and c.name like 'Proposed %')::int as changed`.execute(
      t.database.db,
    );
    expect(kept).toEqual([{ versions: BULK, changed: BULK }]);
    expect(await keepVersionsTrigger()).toEqual([{ enabled: "O" }]);
  });
});
