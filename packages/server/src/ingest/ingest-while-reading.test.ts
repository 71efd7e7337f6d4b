import { sql } from "kysely";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { selectPendingEvents } from "../changes/selected-events.ts";
import type { Db } from "../db/connection.ts";
import { sqlState } from "../db/pg-errors.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { findContext, findEntityType } from "../model/model.ts";
import { buildIndexes } from "../records/index-rebuild.ts";
import { whileAnotherSessionReads } from "../testing/reading-session.ts";
import { tableIndexes, withoutOids } from "../testing/table-indexes.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";
import { ingest } from "./ingest.service.ts";
import { IngestRejected, type IngestRow, type ProposalRights, rowChunks } from "./ingest-input.ts";
import { ANY_PROPOSAL } from "./proposal-rights.ts";

// The ingests that write while the file is read, on a database without the demo records: the first
// load of a type that holds no records (ingest's loadEmptyType), and the diff of one that does
// (diffWhileReading). More rows than one chunk of 5,000, fewer than the 10,000 from which the
// diff's own write builds the indexes again: new index object ids show that the first-load path ran.
const ROWS = 7_000;

let t: TestApp;
let context: ContextModel;
let currency: EntityType;

beforeAll(async () => {
  t = await createTestApp({ env: { DEMO: "0" } });
  context = findContext(t.prepared.model, "reference") as ContextModel;
  currency = findEntityType(context, "currency") as EntityType;
});
afterAll(() => t.close());

// Each test starts from an empty type; nothing is ever deleted in the product, so only the test
// clears it (the countries refer to currencies, and there are none).
beforeEach(async () => {
  await sql`truncate ctx_reference.country, ctx_reference.currency, app.events`.execute(
    t.database.db,
  );
  await sql`update app.type_counts set row_count = 0 where context = 'reference'`.execute(
    t.database.db,
  );
});

async function* currencyRows(
  count: number,
  change: (i: number, row: IngestRow) => IngestRow = (_, row) => row,
): AsyncGenerator<IngestRow> {
  for (let i = 0; i < count; i++)
    yield change(i, {
      rowNumber: i + 2,
      values: { code: `Q${String(i).padStart(6, "0")}`, name: `Currency ${i}`, minor_units: i % 4 },
      problems: [],
    });
}

// The engine as uploads call it (with loadTransaction).
function load(
  rows: AsyncIterable<IngestRow>,
  {
    apply = true,
    dryRun = false,
    maxRows = 1_000_000,
    type = currency,
    attributes = ["code", "name", "minor_units"],
    deleteMissing = false,
    confirmMassMissing = false,
    afterCommit,
    staged = false,
    rights = ANY_PROPOSAL,
  }: {
    /** What the proposer may propose (checkProposal). */
    rights?: ProposalRights;
    /** Staged whole first, then written in a short transaction (ingestByDiff, a metadata import's path). */
    staged?: boolean;
    apply?: boolean;
    dryRun?: boolean;
    maxRows?: number;
    type?: EntityType;
    attributes?: string[];
    deleteMissing?: boolean;
    confirmMassMissing?: boolean;
    afterCommit?: (indexWork: () => Promise<void>) => void;
  } = {},
) {
  const chosen = attributes.map(
    (name) => type.attributes.find((a) => a.name === name) as EntityType["attributes"][number],
  );
  return ingest(t.database.db, {
    copyRows: t.database.copyRows,
    loadTransaction: staged ? undefined : t.database.transaction,
    context,
    type,
    attributes: chosen,
    chunks: rowChunks(type, chosen, rows),
    columnName: (name) => name,
    deleteMissing,
    apply,
    dryRun,
    confirmMassMissing,
    source: "upload:first",
    user: "admin",
    rights,
    maxRows,
    afterCommit,
  });
}

const indexes = () => tableIndexes(t.database.db, "ctx_reference.currency");

async function columnDefaults() {
  const { rows } = await sql<{ name: string; fallback: string | null }>`
    select column_name as name, column_default as fallback from information_schema.columns
    where table_schema = 'ctx_reference' and table_name = 'currency' order by column_name`.execute(
    t.database.db,
  );
  return rows;
}

async function stored() {
  const { rows } = await sql<{
    records: number;
    visible: number;
    linked: number;
    events: number;
    approved: number;
    pending: number;
    counted: number;
  }>`
    select (select count(*) from ctx_reference.currency)::int as records,
           (select count(*) from ctx_reference.currency where not is_pending_new)::int as visible,
           (select count(*) from ctx_reference.currency c join app.events e
              on e.event_id = c.last_event_id and e.entity_key_id = c.entity_key_id and e.action = 'Add'
              and e.new_values = jsonb_build_object('code', c.code, 'name', c.name, 'minor_units', c.minor_units)
           )::int as linked,
           (select count(*) from app.events)::int as events,
           (select count(*) from app.events where status = 'approved')::int as approved,
           (select count(*) from app.events where status = 'pending')::int as pending,
           coalesce((select row_count from app.type_counts where context = 'reference' and entity_type = 'currency'), 0)::int as counted`.execute(
    t.database.db,
  );
  return rows[0];
}

/** What stored() answers once `rows` records were added, approved, each with its Add event. */
const allApplied = (rows: number) => ({
  records: rows,
  visible: rows,
  linked: rows,
  events: rows,
  approved: rows,
  pending: 0,
  counted: rows,
});

/** Checks that the type's indexes are those of `before`, all built again but the primary key. */
async function expectBuiltAgain(before: Awaited<ReturnType<typeof indexes>>) {
  const after = await indexes();
  expect(withoutOids(after)).toEqual(withoutOids(before));
  const kept = after.filter((a) => before.some((b) => b.oid === a.oid)).map((a) => a.name);
  expect(kept).toEqual(["currency_pkey"]);
}

const nothingStored = {
  records: 0,
  visible: 0,
  linked: 0,
  events: 0,
  approved: 0,
  pending: 0,
  counted: 0,
};

describe("the first load of an empty type", () => {
  it("writes every row as a new record with its approved event, and builds the indexes again", async () => {
    const before = await indexes();
    const result = await load(currencyRows(ROWS));
    expect(result).toEqual({
      rows: ROWS,
      added: ROWS,
      changed: 0,
      missing: 0,
      unchanged: 0,
      applied: ROWS,
      pending: 0,
      superseded: 0,
    });
    expect(await stored()).toEqual(allApplied(ROWS));
    await expectBuiltAgain(before);
    // Keys and events follow the rows of the file, across chunks.
    const { rows } = await sql<{ code: string; event: number }>`
      select code, last_event_id as event from ctx_reference.currency order by entity_key_id`.execute(
      t.database.db,
    );
    expect(rows.map((r) => r.code)).toEqual(rows.map((r) => r.code).sort());
    const events = rows.map((r) => r.event);
    expect(events).toEqual([...events].sort((a, b) => a - b));
    // At most 2,500 events a statement (rows a statement wrote share its command id, cmin).
    const { rows: perStatement } = await sql<{ n: number[] }>`
      select array_agg(n order by n) as n from (select count(*)::int as n from app.events
        group by cmin::text) s`.execute(t.database.db);
    expect(perStatement).toEqual([{ n: [2_000, 2_500, 2_500] }]);
    // The rebuilt unique index refuses a second record with the same code.
    await expect(
      sql`insert into ctx_reference.currency (code, name, created_by, updated_by) values ('Q000001', 'twin', 'x', 'x')`.execute(
        t.database.db,
      ),
    ).rejects.toThrow(/unique|duplicate/i);
  });

  it("holds the rows as hidden proposals with pending events when approval is needed", async () => {
    const result = await load(currencyRows(ROWS), { apply: false });
    expect(result).toMatchObject({ added: ROWS, applied: 0, pending: ROWS });
    expect(await stored()).toEqual({
      records: ROWS,
      visible: 0,
      linked: ROWS,
      events: ROWS,
      approved: 0,
      pending: ROWS,
      counted: 0,
    });
  });

  it("writes nothing, and keeps the indexes, when a row after the first chunk is bad", async () => {
    const before = await indexes();
    const rows = currencyRows(ROWS, (i, row) =>
      i === 6_000
        ? { ...row, problems: [{ column: "minor_units", message: "not a number" }] }
        : row,
    );
    const refused = await load(rows).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IngestRejected);
    expect((refused as IngestRejected).message).toContain(
      "row 6002, column 'minor_units': not a number",
    );
    expect(await stored()).toEqual(nothingStored);
    expect(await indexes()).toEqual(before);
  });

  it("writes nothing when a key repeats across chunks, and names both rows", async () => {
    const rows = currencyRows(ROWS, (i, row) =>
      i === 6_500 ? { ...row, values: { ...row.values, code: "Q000003" } } : row,
    );
    const refused = await load(rows).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IngestRejected);
    expect((refused as IngestRejected).message).toContain(
      "the key 'Q000003' appears more than once (rows 5, 6502)",
    );
    expect(await stored()).toEqual(nothingStored);
  });

  it("names repeated keys by the file's row numbers when rows were skipped between them", async () => {
    const rows = currencyRows(ROWS, (i, row) => ({
      rowNumber: 2 + 2 * i,
      values: i === 6_500 ? { ...row.values, code: "Q000003" } : row.values,
      problems: [],
    }));
    const refused = await load(rows).catch((e: unknown) => e);
    expect((refused as IngestRejected).message).toContain(
      "the key 'Q000003' appears more than once (rows 8, 13002)",
    );
    expect(await stored()).toEqual(nothingStored);
  });

  it("leaves the table's column defaults as they were, loaded or refused", async () => {
    const before = await columnDefaults();
    await load(
      currencyRows(ROWS, (i, row) =>
        i === 6_000 ? { ...row, problems: [{ column: "name", message: "bad" }] } : row,
      ),
    )
      .then(() => expect.unreachable())
      .catch((e: unknown) => expect(e).toBeInstanceOf(IngestRejected));
    expect(await columnDefaults()).toEqual(before);
    await load(currencyRows(ROWS), { apply: false });
    expect(await columnDefaults()).toEqual(before);
  });

  it("writes nothing when the file has more rows than allowed, after chunks were written", async () => {
    const refused = await load(currencyRows(ROWS), { maxRows: 6_000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IngestRejected);
    expect((refused as IngestRejected).message).toBe(
      "The file has more than 6,000 rows, the most one upload may carry (UPLOAD_MAX_ROWS)",
    );
    expect(await stored()).toEqual(nothingStored);
  });

  it("resolves references to another type's records, chunk by chunk", async () => {
    await load(currencyRows(3));
    // Its 12,000 made-up codes are not ISO codes: this is about references, not the demo's rules.
    const demoCountry = findEntityType(context, "country") as EntityType;
    const country: EntityType = {
      ...demoCountry,
      attributes: demoCountry.attributes.map((a) => ({ ...a, rules: [] })),
    };
    async function* countries(missingAt?: number): AsyncGenerator<IngestRow> {
      for (let i = 0; i < ROWS; i++)
        yield {
          rowNumber: i + 2,
          values: {
            iso2: `C${String(i).padStart(6, "0")}`,
            name: `Country ${i}`,
            currency: { ref: i === missingAt ? "NOPE" : `Q00000${i % 3}` },
          },
          problems: [],
        };
    }
    const options = { type: country, attributes: ["iso2", "name", "currency"] };
    const refused = await load(countries(6_100), options).catch((e: unknown) => e);
    expect((refused as IngestRejected).message).toContain(
      "row 6102, column 'currency': no Currency 'NOPE'",
    );
    expect(await sql`select 1 from ctx_reference.country`.execute(t.database.db)).toMatchObject({
      rows: [],
    });
    expect(await load(countries(), options)).toMatchObject({ added: ROWS, applied: ROWS });
    const { rows } = await sql<{ code: string; n: number }>`
      select c.code, count(*)::int as n from ctx_reference.country k
      join ctx_reference.currency c on c.entity_key_id = k.currency
      group by c.code order by c.code`.execute(t.database.db);
    expect(rows).toEqual([
      { code: "Q000000", n: 2_334 },
      { code: "Q000001", n: 2_333 },
      { code: "Q000002", n: 2_333 },
    ]);
  });

  it("takes one of two loads started together; the other goes through the diff after it", async () => {
    const [a, b] = await Promise.all([load(currencyRows(ROWS)), load(currencyRows(ROWS))]);
    expect([a.added + b.added, a.unchanged + b.unchanged]).toEqual([ROWS, ROWS]);
    expect(await stored()).toMatchObject({
      records: ROWS,
      linked: ROWS,
      events: ROWS,
      counted: ROWS,
    });
  });

  it("checks only, writing nothing, on a dry run", async () => {
    const result = await load(currencyRows(ROWS), { dryRun: true });
    expect(result).toMatchObject({ rows: ROWS, added: ROWS, applied: 0, pending: 0 });
    expect(await stored()).toEqual(nothingStored);
  });
});

describe("the indexes a first load builds after its commit", () => {
  // Division by zero for every fourth row: built while the table was empty, it cannot be built again.
  const probe = sql`create index currency_probe on ctx_reference.currency ((100 / (minor_units - 3)))`;

  it("are left to the caller with afterCommit: the answer comes before them", async () => {
    const before = await indexes();
    let builds: Promise<void> | undefined;
    let built = false;
    const result = await load(currencyRows(ROWS), {
      afterCommit: (work) => {
        builds = work().then(() => {
          built = true;
        });
      },
    });
    expect(result).toMatchObject({ added: ROWS, applied: ROWS });
    expect(built).toBe(false);
    expect(await stored()).toMatchObject({ records: ROWS, linked: ROWS, counted: ROWS });
    await builds;
    expect(withoutOids(await indexes())).toEqual(withoutOids(before));
  });

  it("leave the records stored when one cannot be built, and build the others", async () => {
    const before = await indexes();
    await probe.execute(t.database.db);
    let builds: Promise<void> | undefined;
    const result = await load(currencyRows(ROWS), {
      afterCommit: (work) => {
        builds = work();
      },
    });
    expect(result).toMatchObject({ added: ROWS, applied: ROWS });
    await expect(builds).rejects.toThrow("division by zero");
    expect(await stored()).toMatchObject({ records: ROWS, linked: ROWS, counted: ROWS });
    expect(withoutOids(await indexes())).toEqual(withoutOids(before));
  });

  it("fail the load without afterCommit, the records stored all the same", async () => {
    await probe.execute(t.database.db);
    await expect(load(currencyRows(ROWS))).rejects.toThrow("division by zero");
    expect(await stored()).toMatchObject({ records: ROWS, linked: ROWS });
    await sql`drop index if exists ctx_reference.currency_probe`.execute(t.database.db);
  });

  it("go on with the others when several cannot be built, then throw", async () => {
    await load(currencyRows(8));
    const before = await indexes();
    const others = before.map((i) => i.definition).filter((d) => d.startsWith("CREATE INDEX"));
    for (const i of before.filter((i) => others.includes(i.definition)))
      await sql`drop index ${sql.id("ctx_reference", i.name)}`.execute(t.database.db);
    // More failures than builders at once: none of them may stop the builds that follow.
    const failing = [0, 1, 2, 3].map(
      (n) =>
        `CREATE INDEX probe_${n} ON ctx_reference.currency USING btree ((100 / (minor_units - 3)))`,
    );
    await expect(buildIndexes(t.database.db, [...failing, ...others])).rejects.toThrow(
      "division by zero",
    );
    expect(withoutOids(await indexes())).toEqual(withoutOids(before));
  });

  it("skip an index that exists already", async () => {
    const before = await indexes();
    const definitions = before.map((i) => i.definition).filter((d) => d.startsWith("CREATE INDEX"));
    expect(definitions.length).toBeGreaterThan(0);
    await buildIndexes(t.database.db, definitions);
    expect(await indexes()).toEqual(before);
  });
});

/** The stored currencies, by code: what a refused ingest must leave as it was. */
async function currencies() {
  const { rows } = await sql<{
    code: string;
    name: string;
    minor_units: number;
    is_deleted: boolean;
    version: number;
  }>`select code, name, minor_units, is_deleted, version from ctx_reference.currency order by code`.execute(
    t.database.db,
  );
  return rows;
}

/**
 * A re-upload of the first ROWS currencies: every 20th left out, every 10th (from the second)
 * renamed, and `added` new ones after them.
 */
async function* reupload(added: number, change = (_i: number, row: IngestRow) => row) {
  for await (const row of currencyRows(ROWS + added, change)) {
    const i = row.rowNumber - 2;
    if (i < ROWS && i % 20 === 0) continue;
    yield i % 10 === 1 ? { ...row, values: { ...row.values, name: `Renamed ${i}` } } : row;
  }
}

describe("the diff of a type that holds records, written while the file is read", () => {
  beforeEach(async () => {
    await load(currencyRows(ROWS));
  });

  it("adds, changes and marks missing, chunk by chunk, as one diff of the whole file", async () => {
    const before = await indexes();
    const result = await load(reupload(500), { deleteMissing: true });
    expect(result).toEqual({
      rows: ROWS - 350 + 500,
      added: 500,
      changed: 700,
      missing: 350,
      unchanged: ROWS - 350 - 700,
      applied: 1_550,
      pending: 0,
      superseded: 0,
    });
    expect(await stored()).toMatchObject({
      records: ROWS + 500,
      visible: ROWS + 500,
      events: ROWS + 1_550,
      approved: ROWS + 1_550,
      counted: ROWS + 500 - 350,
    });
    const byCode = new Map((await currencies()).map((c) => [c.code, c]));
    expect(byCode.get("Q000001")).toMatchObject({
      name: "Renamed 1",
      version: 2,
      is_deleted: false,
    });
    expect(byCode.get("Q006991")).toMatchObject({ name: "Renamed 6991", version: 2 });
    expect(byCode.get("Q000020")).toMatchObject({
      name: "Currency 20",
      version: 2,
      is_deleted: true,
    });
    expect(byCode.get("Q000002")).toMatchObject({ name: "Currency 2", version: 1 });
    expect(byCode.get("Q007499")).toMatchObject({ name: "Currency 7499", version: 1 });
    // Each record's last event, a Change naming the changed value only.
    const { rows: latest } = await sql<{ action: string; n: number; named: number }>`
      select e.action, count(*)::int as n,
        count(*) filter (where e.new_values = jsonb_build_object('name', c.name))::int as named
      from ctx_reference.currency c join app.events e on e.event_id = c.last_event_id
      group by e.action order by e.action`.execute(t.database.db);
    expect(latest).toEqual([
      { action: "Add", n: ROWS - 350 - 700 + 500, named: 0 },
      { action: "Change", n: 700, named: 700 },
      { action: "Missing", n: 350, named: 0 },
    ]);
    // Rows written a chunk at a time never reach the 10,000 of a write that rebuilds the indexes.
    expect(await indexes()).toEqual(before);
  });

  it("writes at most 600 rows of the diff in one statement, keys and events in the file's order", async () => {
    // The second chunk: 600 records unchanged and 1,500 new; 1,400 records missing from the file.
    async function* rows() {
      yield* currencyRows(5_600);
      for (let i = 0; i < 1_500; i++)
        yield {
          rowNumber: 5_602 + i,
          values: { code: `N${String(i).padStart(6, "0")}`, name: `New ${i}`, minor_units: 2 },
          problems: [],
        };
    }
    expect(await load(rows(), { deleteMissing: true })).toMatchObject({
      added: 1_500,
      missing: 1_400,
      unchanged: 5_600,
      applied: 2_900,
    });
    // Rows a statement wrote share its command id (cmin) within the transaction.
    const perStatement = async (where: string) => {
      const { rows } = await sql<{ n: number[] }>`
        select array_agg(n order by n) as n from (select count(*)::int as n
          from ctx_reference.currency where ${sql.raw(where)} group by cmin::text) s`.execute(
        t.database.db,
      );
      return rows[0].n;
    };
    expect(await perStatement("code like 'N%'")).toEqual([500, 500, 500]);
    expect(await perStatement("is_deleted")).toEqual([466, 467, 467]);
    // New records' keys and each record's last event follow the file's rows, across the slices.
    const { rows: order } = await sql<{ keys: boolean; events: boolean; linked: number }>`
      select bool_and(c.entity_key_id > p.entity_key_id) as keys,
             bool_and(c.last_event_id > p.last_event_id) as events,
             count(e.event_id)::int as linked
      from ctx_reference.currency c
      join ctx_reference.currency p on p.code = 'N' || lpad((substr(c.code, 2)::int - 1)::text, 6, '0')
      left join app.events e on e.event_id = c.last_event_id and e.entity_key_id = c.entity_key_id
        and e.action = 'Add'
      where c.code like 'N%'`.execute(t.database.db);
    expect(order).toEqual([{ keys: true, events: true, linked: 1_499 }]);
    const { rows: missing } = await sql<{ n: number }>`
      select count(*)::int as n from ctx_reference.currency c join app.events e
        on e.event_id = c.last_event_id and e.entity_key_id = c.entity_key_id and e.action = 'Missing'
      where c.is_deleted and c.version = 2`.execute(t.database.db);
    expect(missing).toEqual([{ n: 1_400 }]);
    expect(await stored()).toMatchObject({ events: ROWS + 2_900, counted: ROWS + 1_500 - 1_400 });
  });

  it("writes nothing when a row after the first chunk is bad", async () => {
    const before = { records: await currencies(), stored: await stored() };
    const rows = reupload(500, (i, row) =>
      i === 6_003
        ? { ...row, problems: [{ column: "minor_units", message: "not a number" }] }
        : row,
    );
    const refused = await load(rows, { deleteMissing: true }).catch((e: unknown) => e);
    expect((refused as IngestRejected).message).toContain(
      "row 6005, column 'minor_units': not a number",
    );
    expect({ records: await currencies(), stored: await stored() }).toEqual(before);
  });

  it("writes nothing when a key repeats, within a chunk or across chunks, and names the rows", async () => {
    const before = { records: await currencies(), stored: await stored() };
    for (const [at, rows] of [
      [101, "rows 5, 103"],
      [6_501, "rows 5, 6503"],
    ] as const) {
      const repeated = reupload(500, (i, row) =>
        i === at ? { ...row, values: { ...row.values, code: "Q000003" } } : row,
      );
      const refused = await load(repeated).catch((e: unknown) => e);
      expect((refused as IngestRejected).message).toContain(
        `the key 'Q000003' appears more than once (${rows})`,
      );
      expect({ records: await currencies(), stored: await stored() }).toEqual(before);
    }
  });

  it("refuses to mark more than half of the records missing unless confirmed, writing nothing", async () => {
    const before = { records: await currencies(), stored: await stored() };
    const renamed = currencyRows(3_000, (i, row) =>
      i === 1 ? { ...row, values: { ...row.values, name: "Renamed" } } : row,
    );
    const refused = await load(renamed, { deleteMissing: true }).catch((e: unknown) => e);
    expect(refused).toMatchObject({
      status: 409,
      message:
        "This upload would mark 4000 of 7000 Currency records missing (more than half). Check the file, or confirm to continue.",
    });
    expect({ records: await currencies(), stored: await stored() }).toEqual(before);
    const confirmed = await load(currencyRows(3_000), {
      deleteMissing: true,
      confirmMassMissing: true,
    });
    expect(confirmed).toMatchObject({ missing: 4_000, unchanged: 3_000, applied: 4_000 });
  });

  it.skipIf(testDatabaseKind() !== "postgres")(
    "has written the first chunk's changes while it reads the third",
    async () => {
      let writing: boolean | undefined;
      const rows = reupload(5_000);
      async function* watched() {
        for await (const row of rows) {
          if (row.rowNumber === 11_002) writing = await writtenElsewhere();
          yield row;
        }
      }
      await load(watched());
      expect(writing).toBe(true);
    },
  );

  it.skipIf(testDatabaseKind() !== "postgres")(
    "leaves the type's count free while it reads, and makes decisions on the type wait for it",
    async () => {
      let countLocked: boolean | undefined;
      let decisionWaits: boolean | undefined;
      async function* watched() {
        // A row of the fourth chunk: the second and third, with new records, are written.
        for await (const row of reupload(10_000)) {
          if (row.rowNumber === 15_851) {
            countLocked = await blockedElsewhere(async (tx) => {
              await sql`select row_count from app.type_counts
                where context = 'reference' and entity_type = 'currency' for update`.execute(tx);
            });
            decisionWaits = await blockedElsewhere(async (tx) => {
              await selectPendingEvents(tx, context, currency, { entityEventIds: [] }, "someone", {
                judge: true,
              });
            });
          }
          yield row;
        }
      }
      expect(await load(watched())).toMatchObject({ added: 10_000, changed: 700 });
      expect([countLocked, decisionWaits]).toEqual([false, true]);
      expect(await stored()).toMatchObject({ counted: ROWS + 10_000 });
    },
  );
});

/** Whether `work`, in a transaction of another session, has to wait for a lock (0.2 s at most). */
async function blockedElsewhere(work: (tx: Db) => Promise<void>): Promise<boolean> {
  return t.database.db
    .transaction()
    .execute(async (tx) => {
      await sql`set local lock_timeout = '200ms'`.execute(tx);
      await work(tx);
      return false;
    })
    .catch((error: unknown) => {
      if (sqlState(error) !== "55P03") throw error;
      return true;
    });
}

describe("a large file into a type that holds few records", () => {
  it("is written chunk by chunk until its new records outnumber the type's, then in one go", async () => {
    await load(currencyRows(3));
    const before = await indexes();
    const rows = 35_000;
    expect(await load(currencyRows(rows))).toEqual({
      rows,
      added: rows - 3,
      changed: 0,
      missing: 0,
      unchanged: 3,
      applied: rows - 3,
      pending: 0,
      superseded: 0,
    });
    expect(await stored()).toEqual(allApplied(rows));
    // The last 20,000 rows, more than the 15,000 records by then, were written with the indexes
    // built again.
    await expectBuiltAgain(before);
  });

  it("staged whole, leaves its non-unique index builds until after the commit", async () => {
    await load(currencyRows(3));
    const before = await indexes();
    let builds: Promise<void> | undefined;
    let built = false;
    const rows = 35_000;
    const result = await load(currencyRows(rows), {
      staged: true,
      afterCommit: (work) => {
        builds = work().then(() => {
          built = true;
        });
      },
    });
    expect(result).toMatchObject({ rows, added: rows - 3, applied: rows - 3 });
    expect(builds).toBeDefined();
    expect(built).toBe(false);
    expect(await stored()).toEqual(allApplied(rows));
    await builds;
    await expectBuiltAgain(before);
  });
});

/** Whether a session other than the one asking holds the type's table for writing. */
async function writtenElsewhere(): Promise<boolean> {
  const { rows } = await sql<{ held: boolean }>`
    select exists (select from pg_locks where relation = 'ctx_reference.currency'::regclass
      and mode = 'RowExclusiveLock' and granted and pid <> pg_backend_pid()) as held`.execute(
    t.database.db,
  );
  return rows[0].held;
}

describe("rows breaking a rule", () => {
  const RULE = "Minor units are between 0 and 4";
  /** Stores minor units the rule refuses for the given codes, as if set before the rule. */
  const breakRule = (codes: string[]) =>
    sql`update ctx_reference.currency set minor_units = 7 where code = any(${codes}::text[])`.execute(
      t.database.db,
    );
  const minorUnits = async (code: string) =>
    (await currencies()).find((c) => c.code === code)?.minor_units;

  it.each([
    ["written while the file is read", false],
    ["staged whole", true],
  ])(
    "%s, are refused where they change what the rule reads, and pass where they keep it",
    async (_path, staged) => {
      await load(currencyRows(ROWS));
      await breakRule(["Q000010", "Q006500"]);
      const kept = (i: number, row: IngestRow) =>
        i === 10 || i === 6_500
          ? { ...row, values: { ...row.values, name: `Kept ${i}`, minor_units: 7 } }
          : row;
      const before = { records: await currencies(), stored: await stored() };
      const refused = await load(
        currencyRows(ROWS + 1, (i, row) =>
          i === 6_003
            ? { ...row, values: { ...row.values, minor_units: 9 } }
            : i === ROWS
              ? { ...row, values: { ...row.values, minor_units: 8 } }
              : kept(i, row),
        ),
        { staged },
      ).catch((e: unknown) => e);
      expect((refused as IngestRejected).message.split("\n")).toEqual([
        "The file was refused; nothing was changed. Problems:",
        `row 6005, column 'minor_units': ${RULE}`,
        `row ${ROWS + 2}, column 'minor_units': ${RULE}`,
      ]);
      expect({ records: await currencies(), stored: await stored() }).toEqual(before);
      expect(await load(currencyRows(ROWS, kept), { staged })).toMatchObject({ changed: 2 });
      expect(await minorUnits("Q006500")).toBe(7);
    },
  );

  it("in the part of a large file written in one go, are judged on its diff", async () => {
    await load(currencyRows(3));
    await breakRule(["Q000001"]);
    const late = 30_000;
    // The stored record comes late in the file, where its rows are written in one go.
    const swapped = (i: number, row: IngestRow) =>
      i === 1 || i === late
        ? {
            ...row,
            values: {
              ...row.values,
              code: i === 1 ? `Q0${late}` : "Q000001",
              name: i === 1 ? `Currency ${late}` : "Currency 1",
              minor_units: i === 1 ? 0 : 7,
            },
          }
        : row;
    const rows = 35_000;
    const refused = await load(
      currencyRows(rows, (i, row) =>
        i === 31_000 ? { ...row, values: { ...row.values, minor_units: 9 } } : swapped(i, row),
      ),
    ).catch((e: unknown) => e);
    expect((refused as IngestRejected).message.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 31002, column 'minor_units': ${RULE}`,
    ]);
    // Refused for a row of a later chunk, the file still lists them.
    const later = await load(
      currencyRows(rows, (i, row) =>
        i === 16_000
          ? { ...row, values: { ...row.values, minor_units: 9 } }
          : i === 34_000
            ? { ...row, problems: [{ column: "name", message: "not a name" }] }
            : swapped(i, row),
      ),
    ).catch((e: unknown) => e);
    expect((later as IngestRejected).message.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 16002, column 'minor_units': ${RULE}`,
      "row 34002, column 'name': not a name",
    ]);
    expect(await load(currencyRows(rows, swapped))).toMatchObject({
      added: rows - 3,
      unchanged: 3,
    });
    expect(await minorUnits("Q000001")).toBe(7);
  }, 120_000);
});

describe("an ingest PostgreSQL fails to break a deadlock", () => {
  it("answers 409, asking to try again, and writes nothing", async () => {
    async function* deadlocked(): AsyncGenerator<IngestRow> {
      yield* currencyRows(ROWS - 1);
      throw Object.assign(new Error("deadlock detected"), { code: "40P01" });
    }
    const refused = await load(deadlocked()).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IngestRejected);
    expect(refused).toMatchObject({
      status: 409,
      message:
        "Another change to the same records ran at the same time; nothing was changed. Please try again.",
    });
    expect(await stored()).toEqual(nothingStored);
  });
});

describe("a type that holds records", () => {
  it("is diffed as usual, even when its only record is discontinued: the record comes back", async () => {
    await load(currencyRows(1));
    await sql`update ctx_reference.currency set is_deleted = true`.execute(t.database.db);
    const before = await indexes();
    const result = await load(currencyRows(3));
    expect(result).toMatchObject({ added: 2, changed: 1, applied: 3 });
    // Three rows are too few for the diff's write to build the indexes again.
    expect(await indexes()).toEqual(before);
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from ctx_reference.currency where not is_deleted`.execute(
      t.database.db,
    );
    expect(rows[0].n).toBe(3);
  });
});

describe.skipIf(testDatabaseKind() !== "postgres")("a type another session is reading", () => {
  it("is diffed without waiting when it holds records", async () => {
    await load(currencyRows(1));
    await whileAnotherSessionReads(t.database.url as string, "ctx_reference.currency", async () => {
      const started = Date.now();
      const result = await load(currencyRows(3));
      expect(result).toMatchObject({ added: 2, unchanged: 1 });
      expect(Date.now() - started).toBeLessThan(1_500);
    });
  });

  it("is loaded through the diff, when empty, after waiting for it at most 2 seconds", async () => {
    await whileAnotherSessionReads(t.database.url as string, "ctx_reference.currency", async () => {
      const before = await indexes();
      const started = Date.now();
      const result = await load(currencyRows(ROWS));
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_900);
      expect(Date.now() - started).toBeLessThan(3_500);
      expect(result).toMatchObject({ added: ROWS, applied: ROWS });
      expect(await indexes()).toEqual(before);
    });
    expect(await stored()).toMatchObject({ records: ROWS, linked: ROWS, counted: ROWS });
  });
});

describe("an upload into an empty type", () => {
  it("answers the summary and stores the rows", async () => {
    await t.createUser({
      username: "steward",
      roles: [{ context: "reference", role: "steward" }],
    });
    const steward = await t.login("steward", TEST_USER_PASSWORD);
    const header = ["Code", "Name", "Minor units", "Active"];
    const body = Array.from({ length: ROWS }, (_, i) => [
      `U${String(i).padStart(5, "0")}`,
      `Unit ${i}`,
      i % 3,
      i % 2 === 0,
    ]);
    const file = await workbookOf("Currencies", [header, ...body]);
    const before = await indexes();
    const first = await upload(t, steward, file, { layout: "currencies", fileName: "units.xlsx" });
    expect(first.statusCode).toBe(200);
    expect(first.body).toMatch(
      /^units\.xlsx: 7000 rows read - 7000 added, 0 changed, 0 missing, 0 unchanged; 7000 changes pending approval$/,
    );
    expect(await stored()).toMatchObject({ records: ROWS, visible: 0, pending: ROWS });
    // The first load ran: its indexes were built again.
    const rebuilt = (await indexes()).filter((a) => !before.some((b) => b.oid === a.oid));
    expect(rebuilt.length).toBeGreaterThan(0);
    // The others are built after the answer.
    await expect
      .poll(async () => withoutOids(await indexes()), { timeout: 10_000 })
      .toEqual(withoutOids(before));
    // The same file again: the type holds records now, and nothing has changed.
    const again = await upload(t, steward, file, { layout: "currencies", fileName: "units.xlsx" });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain("7000 added, 0 changed, 0 missing, 0 unchanged");
    expect(await stored()).toMatchObject({ records: ROWS, pending: ROWS });
    // Two uploads of 7,000 rows and the index builds between them: 26-32 s on PGlite alone on a
    // 2-core machine, over 60 s while the PostgreSQL suite runs beside it.
  }, 120_000);
});

describe("another user's list call while the file is read", () => {
  it("is answered at once when it reads nothing the upload writes", async () => {
    await t.createUser({
      username: "reader",
      roles: [{ context: "Data Dictionary", role: "dictionary_viewer" }],
    });
    const reader = await t.login("reader", TEST_USER_PASSWORD);
    let listed: { statusCode: number; waitedMs: number } | undefined;
    async function* watched() {
      for await (const row of currencyRows(ROWS)) {
        // The first chunk is written, and the upload's transaction waits for the next rows.
        if (row.rowNumber === 6_002) {
          const started = Date.now();
          const list = t.post(
            "/api/entity",
            { context: "Data Dictionary", entityType: "edition" },
            reader,
          );
          const answered = await Promise.race([
            list,
            new Promise<undefined>((resolve) => setTimeout(resolve, 5_000)),
          ]);
          listed = answered && { statusCode: answered.statusCode, waitedMs: Date.now() - started };
        }
        yield row;
      }
    }
    expect(await load(watched())).toMatchObject({ added: ROWS, applied: ROWS });
    // Before: it waited for the upload's commit, which waited for it.
    expect(listed?.statusCode).toBe(200);
    expect(listed?.waitedMs).toBeLessThan(1_000);
  });
});

describe("what the proposer may propose", () => {
  const createOnly = { create: true, edit: false, delete: false };
  const editOnly = { create: false, edit: true, delete: false };

  it("refuses a first load to a proposer who may not create, writing nothing", async () => {
    const refused = await load(currencyRows(ROWS), { rights: editOnly }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(IngestRejected);
    expect(refused).toMatchObject({
      status: 403,
      message:
        "The changes were refused; nothing was changed: you may not create Currency records (at least 5000 would be added)",
    });
    expect(await stored()).toEqual(nothingStored);
    expect(await load(currencyRows(ROWS), { rights: createOnly })).toMatchObject({
      added: ROWS,
    });
  });

  describe("of a type that holds records", () => {
    beforeEach(async () => {
      await load(currencyRows(ROWS));
    });

    it("refuses a change in a later chunk to a create-only proposer, rolling back the chunks written", async () => {
      const before = { records: await currencies(), stored: await stored() };
      // The first chunk only adds (allowed); the second renames one record.
      async function* rows() {
        yield* currencyRows(5_000, (i, row) => ({
          ...row,
          values: { ...row.values, code: `N${String(i).padStart(6, "0")}` },
        }));
        yield* currencyRows(1, (_, row) => ({
          ...row,
          rowNumber: 5_002,
          values: { ...row.values, name: "Renamed" },
        }));
      }
      const refused = await load(rows(), { rights: createOnly }).catch((e: unknown) => e);
      expect(refused).toMatchObject({
        status: 403,
        message:
          "The changes were refused; nothing was changed: you may not edit Currency records (at least 1 would be changed)",
      });
      expect({ records: await currencies(), stored: await stored() }).toEqual(before);
    });

    it("refuses records marked missing to a proposer who may not delete, before the mass-deletion guard", async () => {
      const before = await stored();
      const refused = await load(currencyRows(3_000), {
        deleteMissing: true,
        rights: { create: true, edit: true, delete: false },
      }).catch((e: unknown) => e);
      expect(refused).toMatchObject({
        status: 403,
        message:
          "The changes were refused; nothing was changed: you may not delete Currency records (4000 would be marked missing)",
      });
      expect(await stored()).toEqual(before);
      // Without Missing rows the same proposer's file goes through.
      expect(
        await load(currencyRows(ROWS), {
          deleteMissing: true,
          rights: { create: true, edit: true, delete: false },
        }),
      ).toMatchObject({ unchanged: ROWS, missing: 0 });
    });

    it("staged whole, names every refused kind with its count; a dry run says it would be refused", async () => {
      const before = await stored();
      const mixed = reupload(500);
      const refused = await load(mixed, {
        staged: true,
        deleteMissing: true,
        rights: { create: false, edit: true, delete: false },
      }).catch((e: unknown) => e);
      expect(refused).toMatchObject({
        status: 403,
        message:
          "The changes were refused; nothing was changed: you may not create Currency records (500 would be added); you may not delete Currency records (350 would be marked missing)",
      });
      const checked = await load(reupload(500), {
        dryRun: true,
        deleteMissing: true,
        rights: editOnly,
      }).catch((e: unknown) => e);
      expect(checked).toMatchObject({
        status: 403,
        message:
          "Check only, nothing was changed. The changes would be refused: you may not create Currency records (500 would be added); you may not delete Currency records (350 would be marked missing)",
      });
      expect(await stored()).toEqual(before);
    });
  });
});
