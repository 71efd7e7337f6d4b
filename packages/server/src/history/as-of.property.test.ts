import fs from "node:fs/promises";
import type {
  ChangeKind,
  CompareResult,
  CompareRow,
  EntityList,
  EntityRecord,
  ScalarValue,
} from "@ledgerline/contract";
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { momentBetweenSteps } from "../testing/moments.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { testModelDir, typeIn } from "../testing/test-model.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

// Random web edits, uploads and decisions on the demo model's `reference` context, remembering
// after each one a moment and every list of both types as read then (and the microsecond the step
// wrote at). Afterwards a list as of each moment must be exactly the one read then, and a
// comparison of two moments exactly the difference of their lists. The demo seed is left out
// (DEMO=0): every list is read whole at every step, and with a handful of records the file stays
// well under a minute on PGlite.

type TypeName = "currency" | "country";
const TYPES: readonly TypeName[] = ["currency", "country"];
const IDENTITY: Record<TypeName, string> = { currency: "code", country: "iso2" };
/** The stored attributes: a record Changed when one of them differs. */
const STORED: Record<TypeName, readonly string[]> = {
  currency: ["code", "name", "minor_units", "active"],
  country: [
    "iso2",
    "name",
    "currency",
    "region",
    "population",
    "joined_eu",
    "eu_member",
    "verified_on",
  ],
};
/** Every attribute in model order: the formula `display` and generated `population_band` too. */
const ATTRIBUTES: Record<TypeName, readonly string[]> = {
  currency: STORED.currency,
  country: [...STORED.country, "display", "population_band"],
};
const LAYOUTS: Record<TypeName, { layout: string; sheet: string }> = {
  currency: { layout: "currencies", sheet: "Currencies" },
  country: { layout: "countries", sheet: "Countries" },
};
/** A layout's columns; the `optional` ones are left out of some files (their values stay). */
const COLUMNS: Record<TypeName, readonly { header: string; name: string; optional?: true }[]> = {
  currency: [
    { header: "Code", name: "code" },
    { header: "Name", name: "name" },
    { header: "Minor units", name: "minor_units" },
    { header: "Active", name: "active", optional: true },
  ],
  country: [
    { header: "ISO2", name: "iso2" },
    { header: "Name", name: "name" },
    { header: "Currency", name: "currency" },
    { header: "Population", name: "population" },
    { header: "Joined EU", name: "joined_eu", optional: true },
    { header: "EU member", name: "eu_member", optional: true },
  ],
};

// Small pools, so that operations collide: edits of existing records, re-creations, records
// coming back after Missing, names taken twice (a country's name is unique). A `?` stands for a
// letter of the run's own, so that every run has new records to propose too.
const CODES: Record<TypeName, readonly string[]> = {
  currency: ["XAA", "XBB", "XC?"],
  country: ["QA", "QB", "R?", "S?"],
};
const COUNTRY_NAMES = ["Aland", "Borduria", "Cascadia ?", "Dorne ?", "Erewhon ?", "Freedonia ?"];
let runNumber = 0;
/** Values of an operation as this run sends them. */
const ofRun = (values: Values): Values =>
  Object.fromEntries(
    Object.entries(values).map(([name, v]) => [
      name,
      typeof v === "string" ? v.replace("?", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[runNumber % 26]) : v,
    ]),
  );
/** A country's currency in an operation: the n-th visible currency when it runs, or none known. */
const UNKNOWN = -1;
const UNKNOWN_CURRENCY = "XZZ";

/** Mostly one of `valid`, now and then `invalid` (refused by a rule or a reference). */
const mostly = <T>(valid: readonly T[], invalid: T) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...valid), weight: 19 },
    { arbitrary: fc.constant(invalid), weight: 1 },
  );
const VALUES = {
  currency: {
    name: fc.constantFrom("Alpha", "Beta", "Gamma"),
    minor_units: mostly([0, 2, 3, null], 9),
    active: fc.constantFrom(true, false, null),
  },
  country: {
    name: fc.constantFrom(...COUNTRY_NAMES),
    currency: mostly([0, 1, 2], UNKNOWN),
    // Each side of every population band, a fraction, and more than any country has (a warning).
    population: mostly(
      [null, 0, 999_999, 1_000_000, 49_999_999, 50_000_000, 2_500_000_000, 1234.5],
      -1,
    ),
    joined_eu: fc.constantFrom(null, "1995-01-01", "2004-05-01"),
    eu_member: fc.constantFrom(null, true, false),
  },
};

type Values = Record<string, ScalarValue>;
type Op =
  | {
      kind: "save";
      type: TypeName;
      code: string;
      action?: "create" | "update";
      /** Every value a new record needs; an existing one is sent those `edited` only. */
      values: Values;
      edited: string[];
    }
  | { kind: "delete"; type: TypeName; codes: string[] }
  | {
      kind: "upload";
      type: TypeName;
      rows: Values[];
      /** Unset: the layout's default (currencies true, countries false). */
      deleteMissing?: boolean;
      /** Sent by a user who may approve, so the changes are applied at once. */
      approveEverything: boolean;
      confirmMassMissing: boolean;
      allColumns: boolean;
    }
  | {
      kind: "decide";
      type: TypeName;
      verdict: "approve" | "reject" | "verify";
      /** The pending changes of one upload, or those the mask picks. */
      byUpload: boolean;
      mask: boolean[];
      /** Whether 'Approve as verified' is asked to run on deletions too (it refuses them). */
      withRemovals: boolean;
    };

const typeArb = fc.constantFrom(...TYPES);

const saveArb = typeArb.chain((type) =>
  fc.record({
    kind: fc.constant("save" as const),
    type: fc.constant(type),
    code: fc.constantFrom(...CODES[type]),
    action: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 4 },
      { arbitrary: fc.constantFrom("create" as const, "update" as const), weight: 1 },
    ),
    values: fc.record<Values>(VALUES[type]),
    edited: fc.subarray(Object.keys(VALUES[type]), { minLength: 1 }),
  }),
);

const deleteArb = typeArb.chain((type) =>
  fc.record({
    kind: fc.constant("delete" as const),
    type: fc.constant(type),
    codes: fc.uniqueArray(fc.constantFrom(...CODES[type]), { minLength: 1, maxLength: 2 }),
  }),
);

/** Mostly names of their own for the rows of a country file (a second use is refused). */
function ownNames(type: TypeName, rows: Values[]): fc.Arbitrary<Values[]> {
  if (type !== "country") return fc.constant(rows);
  const n = rows.length;
  const renamed = fc
    .shuffledSubarray(COUNTRY_NAMES, { minLength: n, maxLength: n })
    .map((names) => rows.map((row, i) => ({ ...row, name: names[i] })));
  return fc.oneof({ arbitrary: renamed, weight: 4 }, { arbitrary: fc.constant(rows), weight: 1 });
}

const uploadArb = typeArb.chain((type) =>
  fc.record({
    kind: fc.constant("upload" as const),
    type: fc.constant(type),
    rows: fc
      .uniqueArray(
        fc.record<Values>({ [IDENTITY[type]]: fc.constantFrom(...CODES[type]), ...VALUES[type] }),
        { selector: (r) => r[IDENTITY[type]], minLength: 1, maxLength: CODES[type].length },
      )
      .chain((rows) => ownNames(type, rows)),
    deleteMissing: fc.constantFrom(false, false, true, undefined),
    approveEverything: fc.constantFrom(true, false, false),
    confirmMassMissing: fc.boolean(),
    allColumns: fc.boolean(),
  }),
);

const decideArb = fc.record({
  kind: fc.constant("decide" as const),
  type: typeArb,
  verdict: fc.oneof(
    { arbitrary: fc.constant("approve" as const), weight: 3 },
    { arbitrary: fc.constant("reject" as const), weight: 2 },
    { arbitrary: fc.constant("verify" as const), weight: 2 },
  ),
  byUpload: fc.boolean(),
  mask: fc.array(fc.boolean(), { minLength: 1, maxLength: 4 }),
  withRemovals: fc.boolean(),
});

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: saveArb, weight: 4 },
  { arbitrary: deleteArb, weight: 2 },
  { arbitrary: uploadArb, weight: 3 },
  { arbitrary: decideArb, weight: 5 },
);

let t: TestApp;
/** Steward and approver at once: edits, and uploads with 'Approve everything'. */
let editor: string;
/** Decides on the editor's changes (a country's may not be approved by whoever proposed them). */
let approver: string;

const post = (url: string, body: object, cookie: string) =>
  t.post(url, { context: "reference", ...body }, cookie);

/** Snapshots of earlier runs (and of before the first), checked again by every run. */
const remembered: Snapshot[] = [];

let modelDir: string;

beforeAll(async () => {
  // Uploads approve everything, country's too: here country allows self-approval (four eyes are
  // not what this test is about).
  modelDir = await testModelDir({
    "reference.yaml": (doc) => {
      typeIn(doc, "country").selfApproval = true;
    },
  });
  t = await createTestApp({ env: { DEMO: "0", MODEL_DIR: modelDir } });
  const role = (name: string) => ({ context: "reference", role: name });
  await t.createUser({ username: "editor", roles: [role("steward"), role("approver")] });
  await t.createUser({ username: "approver", roles: [role("approver")] });
  editor = await t.login("editor", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
  remembered.push(await remember("nothing yet"));
  // A few records to start from: two currencies, and two countries applied as uploaded (on
  // PostgreSQL the first load of an empty type, copied straight into its table).
  for (const [code, name] of [
    ["XAA", "Alpha"],
    ["XBB", "Beta"],
  ]) {
    const res = await post("/api/save", { entityType: "currency", record: { code, name } }, editor);
    expect(res.statusCode, res.body).toBe(200);
  }
  const file = await workbookOf("Countries", [
    COLUMNS.country.map((c) => c.header),
    ["QA", "Aland", "XAA", 30_000, null, false],
    ["QB", "Borduria", "XBB", 5_000_000, "1995-01-01", true],
  ]);
  const res = await upload(t, editor, file, { layout: "countries", approveEverything: true });
  expect(res.statusCode, res.body).toBe(200);
  remembered.push(await remember("the starting records"));
});
afterAll(async () => {
  await t?.close();
  await fs.rm(modelDir, { recursive: true, force: true });
});

/** The key of a record by its code; a rejected proposal's too unless `proposals` is false. */
async function keyOf(type: TypeName, code: string, proposals = true): Promise<number | undefined> {
  const { rows } = await sql<{ id: string }>`
    select entity_key_id as id from ${sql.table(`ctx_reference.${type}`)}
    where ${sql.ref(IDENTITY[type])} = ${code}
      and (${proposals} or not (is_pending_new and is_deleted))`.execute(t.database.db);
  return rows[0] ? Number(rows[0].id) : undefined;
}

/** The code of the n-th currency a country may refer to now, or one that does not exist. */
async function currencyCode(pick: ScalarValue): Promise<string> {
  const { rows } = await sql<{ code: string }>`
    select code from ctx_reference.currency where not is_deleted and not is_pending_new
    order by code`.execute(t.database.db);
  return pick === UNKNOWN || rows.length === 0
    ? UNKNOWN_CURRENCY
    : rows[Number(pick) % rows.length].code;
}

async function pendingEvents(type: TypeName) {
  const { rows } = await sql<{ event_id: string; action: string; source: string }>`
    select event_id, action, source from app.events
    where context = 'reference' and entity_type = ${type} and status = 'pending'
    order by event_id`.execute(t.database.db);
  return rows.map((r) => ({ id: Number(r.event_id), action: r.action, source: r.source }));
}

/** What an operation did: `what` names it by what ran (`save country`, `reject currency`). */
interface Outcome {
  what: string;
  status: number;
  body: string;
}

/** Runs one operation; answers undefined when there was nothing to run it on. */
async function perform(op: Op): Promise<Outcome | undefined> {
  const outcome = (what: string) => (res: LightMyRequestResponse | undefined) =>
    res && { what, status: res.statusCode, body: res.body };
  switch (op.kind) {
    case "save":
      return save(op).then(outcome(`save ${op.type}`));
    case "delete":
      return remove(op).then(outcome(`delete ${op.type}`));
    case "upload":
      return uploadRows(op).then(outcome(`upload ${op.type}`));
    case "decide":
      return decide(op);
  }
}

async function remove(op: Extract<Op, { kind: "delete" }>) {
  const keys = await Promise.all(
    op.codes.map((code) => keyOf(op.type, String(ofRun({ code }).code))),
  );
  const entityKeyIds = keys.filter((k) => k !== undefined);
  if (entityKeyIds.length === 0) return undefined;
  return post("/api/delete", { entityType: op.type, entityKeyIds }, editor);
}

async function save(op: Extract<Op, { kind: "save" }>) {
  const code = String(ofRun({ code: op.code }).code);
  const existing = await keyOf(op.type, code, false);
  const values =
    existing === undefined
      ? op.values
      : Object.fromEntries(op.edited.map((name) => [name, op.values[name]]));
  const record = ofRun({ [IDENTITY[op.type]]: code, ...values });
  if (record.currency !== undefined)
    record.currency = (await keyOf("currency", await currencyCode(record.currency))) ?? 999_999;
  return post("/api/save", { entityType: op.type, record, action: op.action }, editor);
}

async function uploadRows(op: Extract<Op, { kind: "upload" }>) {
  const columns = COLUMNS[op.type].filter((c) => op.allColumns || !c.optional);
  const rows = await Promise.all(
    op.rows
      .map(ofRun)
      .map(async (row) =>
        Promise.all(
          columns.map((c) => (c.name === "currency" ? currencyCode(row.currency) : row[c.name])),
        ),
      ),
  );
  const file = await workbookOf(LAYOUTS[op.type].sheet, [columns.map((c) => c.header), ...rows]);
  return upload(t, editor, file, {
    layout: LAYOUTS[op.type].layout,
    deleteMissing: op.deleteMissing,
    approveEverything: op.approveEverything,
    confirmMassMissing: op.confirmMassMissing,
  });
}

async function decide(op: Extract<Op, { kind: "decide" }>): Promise<Outcome | undefined> {
  // The other type when this one has nothing pending.
  let type = op.type;
  let pending = await pendingEvents(type);
  if (pending.length === 0) {
    type = type === "country" ? "currency" : "country";
    pending = await pendingEvents(type);
  }
  const uploads = [...new Set(pending.map((e) => e.source).filter((s) => s.startsWith("upload:")))];
  const source = op.byUpload ? uploads[op.mask.length % Math.max(uploads.length, 1)] : undefined;
  let chosen = source
    ? pending.filter((e) => e.source === source)
    : pending.filter((_, i) => op.mask[i % op.mask.length]);
  const verify = op.verdict === "verify" && type === "country";
  if (verify && !op.withRemovals)
    chosen = chosen.filter((e) => e.action !== "Delete" && e.action !== "Missing");
  if (chosen.length === 0) return undefined;
  const entityEventIds = chosen.map((e) => e.id);
  const verdict = verify ? "verify" : op.verdict === "reject" ? "reject" : "approve";
  const selection = source
    ? { uploadId: Number(source.slice("upload:".length)) }
    : { entityEventIds };
  const res = verify
    ? await post(
        "/api/runaction",
        { entityType: type, name: "approve_as_verified", entityEventIds },
        approver,
      )
    : await post(`/api/${verdict}`, { entityType: type, ...selection }, approver);
  return { what: `${verdict} ${type}`, status: res.statusCode, body: res.body };
}

/** The lists of a type remembered at each moment: every record, the visible ones, a page. */
const READS = {
  all: { includeDeleted: true, includeLabels: true, pageSize: 0 },
  visible: { includeLabels: true, pageSize: 0 },
  // Unfiltered and without discontinued records: counted by the type's counter (as of: its log).
  visiblePage: { pageSize: 2, pageNum: 2 },
} as const;
type Lists = Record<keyof typeof READS, EntityList>;

async function readLists(type: TypeName, asOf?: string): Promise<Lists> {
  const lists = await Promise.all(
    Object.entries(READS).map(async ([name, query]) => {
      const res = await post("/api/entity", { entityType: type, ...query, asOf }, editor);
      expect(res.statusCode, res.body).toBe(200);
      return [name, res.json() as EntityList] as const;
    }),
  );
  return Object.fromEntries(lists) as Lists;
}

interface Snapshot {
  at: string;
  /** The operation that led to this state. */
  after: string;
  lists: Record<TypeName, Lists>;
  /**
   * When that operation wrote records (its transaction's start, to the microsecond, as history
   * gives a change's moment), and the microsecond before: the states of this snapshot and of the
   * one before it.
   */
  wrote?: { at: string; justBefore: string };
}

const MICROSECONDS = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/** When records of either type were last written, if that was after `since`. */
async function writtenSince(since: string): Promise<Snapshot["wrote"]> {
  const text = (moment: string) =>
    sql<string>`to_char((${sql.raw(moment)}) at time zone 'UTC', ${sql.raw(MICROSECONDS)})`;
  const { rows } = await sql<{ at: string; just_before: string }>`
    select ${text("w")} as at, ${text("w - interval '1 microsecond'")} as just_before
    from (select max(updated_at) as w from (
      select updated_at from ctx_reference.currency
      union all select updated_at from ctx_reference.country) u) m
    where w > ${since}::timestamptz`.execute(t.database.db);
  return rows[0] && { at: rows[0].at, justBefore: rows[0].just_before };
}

/** The same moment written with another UTC offset (`+05:30`), its fraction of a second kept. */
function inZone(moment: string, offsetMinutes: number): string {
  const fraction = /\.(\d+)Z$/.exec(moment)?.[1] ?? "000";
  const local = new Date(Date.parse(moment) + offsetMinutes * 60_000).toISOString();
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const zone = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return `${local.slice(0, 19)}.${fraction}${zone}`;
}
const ZONES = [0, 330, -480];

async function remember(after: string): Promise<Snapshot> {
  const at = await momentBetweenSteps();
  const [currency, country] = await Promise.all(TYPES.map((type) => readLists(type)));
  const lists = { currency, country };
  for (const type of TYPES) {
    const visible = lists[type].all.data.filter((r) => !r.requested.isDeleted).length;
    expect(lists[type].visible.querySize, `${type}: visible records`).toBe(visible);
    expect(lists[type].visiblePage.querySize, `${type}: the counter`).toBe(visible);
  }
  return { at, after, lists };
}

const visibleIn = (record: EntityRecord | undefined) =>
  record && !record.requested.isDeleted ? record : undefined;
const valueIn = (record: EntityRecord, name: string) => record.requested.attrValues[name]?.value;

/**
 * What /api/compare must answer for every row (pageSize 0), from the two remembered lists; with
 * `keeps`, of the records it keeps as they stood on either side (discontinued or not).
 */
function difference(
  type: TypeName,
  from: Snapshot,
  to: Snapshot,
  keeps: (r: EntityRecord) => boolean = () => true,
): CompareResult {
  const before = new Map(from.lists[type].all.data.map((r) => [r.entityKeyID, r]));
  const after = new Map(to.lists[type].all.data.map((r) => [r.entityKeyID, r]));
  const keys = [...new Set([...before.keys(), ...after.keys()])].sort((x, y) => x - y);
  const counts: Record<ChangeKind, number> = { Added: 0, Changed: 0, Removed: 0 };
  const data: CompareRow[] = [];
  for (const key of keys) {
    const sides = [before.get(key), after.get(key)];
    if (!sides.some((r) => r && keeps(r))) continue;
    const b = visibleIn(sides[0]);
    const a = visibleIn(sides[1]);
    const differing = (names: readonly string[]) =>
      a && b ? names.filter((n) => valueIn(a, n) !== valueIn(b, n)) : [...names];
    let kind: ChangeKind | undefined;
    if (!b) kind = a && "Added";
    else if (!a) kind = "Removed";
    else if (differing(STORED[type]).length > 0) kind = "Changed";
    if (!kind) continue;
    counts[kind] += 1;
    data.push({
      entityKeyID: key,
      kind,
      label: (kind === "Removed" ? b : a)?.label ?? "",
      before: b?.requested.attrValues ?? null,
      after: a?.requested.attrValues ?? null,
      changedAttributes: differing(ATTRIBUTES[type]),
    });
  }
  return { from: from.at, to: to.at, counts, querySize: data.length, data };
}

async function compare(type: TypeName, body: object): Promise<CompareResult> {
  const res = await post("/api/compare", { entityType: type, ...body }, editor);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CompareResult;
}

/** Each snapshot's lists as of its moment must be those read then. */
async function checkAsOf(snapshots: readonly Snapshot[]): Promise<void> {
  for (const s of snapshots) {
    for (const type of TYPES) {
      const why = `${type} as of ${s.at}, after ${s.after}`;
      expect(await readLists(type, s.at), why).toEqual(s.lists[type]);
    }
  }
}

const startsWith = (value: ScalarValue | undefined, prefixes: readonly string[]) =>
  prefixes.some((p) => String(value).toLowerCase().startsWith(p.toLowerCase()));
const NAME_PREFIXES = ["A", "C"];
const CODE_PREFIX: Record<TypeName, string> = { currency: "XC", country: "R" };

/** Filters a comparison is narrowed by, and the records each keeps. */
const FILTERS: readonly {
  body(type: TypeName): object;
  keeps(type: TypeName, r: EntityRecord): boolean;
}[] = [
  {
    body: () => ({
      rowConstraints: [{ attribute: "name", operator: "StartsWith", values: NAME_PREFIXES }],
    }),
    keeps: (_, r) => startsWith(valueIn(r, "name"), NAME_PREFIXES),
  },
  {
    body: (type) => ({
      constraintGroups: [
        [{ attribute: "name", operator: "StartsWith", values: ["B"] }],
        [{ attribute: IDENTITY[type], operator: "StartsWith", values: [CODE_PREFIX[type]] }],
      ],
    }),
    keeps: (type, r) =>
      startsWith(valueIn(r, "name"), ["B"]) ||
      startsWith(valueIn(r, IDENTITY[type]), [CODE_PREFIX[type]]),
  },
];

/** How a comparison of two consecutive snapshots is narrowed too: some kinds, a page, a filter. */
interface Narrowing {
  kinds: readonly ChangeKind[];
  filter: (typeof FILTERS)[number];
}

/** The comparison of two snapshots (of every row; and, when `narrowed`, narrowed). */
async function checkCompare(from: Snapshot, to: Snapshot, narrowed?: Narrowing) {
  for (const type of TYPES) {
    const expected = difference(type, from, to);
    const why = `${type} from ${from.at} (after ${from.after}) to ${to.at} (after ${to.after})`;
    const all = await compare(type, { from: from.at, to: to.at, pageSize: 0 });
    expect(all, why).toEqual(expected);
    if (!narrowed) continue;
    // The counts stay those of every kind.
    const { kinds, filter } = narrowed;
    const rows = expected.data.filter((r) => kinds.includes(r.kind));
    const body = { from: from.at, to: to.at, kinds, pageSize: 1, pageNum: 2 };
    expect(await compare(type, body), `${why}: ${kinds.join(", ")}, page 2`).toEqual({
      ...expected,
      querySize: rows.length,
      data: rows.slice(1, 2),
    });
    const filtered = difference(type, from, to, (r) => filter.keeps(type, r));
    const narrow = { from: from.at, to: to.at, pageSize: 0, ...filter.body(type) };
    expect(await compare(type, narrow), `${why}: ${JSON.stringify(narrow)}`).toEqual(filtered);
  }
}

const KIND_CHOICES: readonly ChangeKind[][] = [["Changed"], ["Added", "Removed"], ["Removed"]];
const narrowing = (i: number): Narrowing => ({
  kinds: KIND_CHOICES[i % KIND_CHOICES.length],
  filter: FILTERS[i % FILTERS.length],
});

/**
 * A run's snapshots: each as of its moment, and the comparison of every two both ways (and of one
 * with itself); and the `older` ones of earlier runs, which must stay exact however much was
 * written since: as of their moments, and compared with the run's first and last.
 */
async function checkPast(snapshots: readonly Snapshot[], older: readonly Snapshot[]) {
  await checkAsOf([...older, ...snapshots]);
  await checkCompare(snapshots[0], snapshots[0]);
  for (const [i, from] of snapshots.entries()) {
    for (const [j, to] of snapshots.entries()) {
      if (i !== j)
        await checkCompare(from, to, Math.abs(i - j) === 1 ? narrowing(i + j) : undefined);
    }
  }
  for (const old of older) {
    for (const end of [snapshots[0], snapshots[snapshots.length - 1]]) {
      await checkCompare(old, end);
      await checkCompare(end, old);
    }
  }
}

/** A step's write, and the snapshots before and after it. */
interface Write {
  before: Snapshot;
  after: Snapshot;
  at: string;
  justBefore: string;
}
/** Every write of every run, for the comparisons within one millisecond (the next test). */
const writes: Write[] = [];

/**
 * At the microsecond a step wrote (in some UTC offset) a list shows what it wrote, and the
 * microsecond before what the step before left; comparing the two answers the step's difference.
 */
async function checkWrites(snapshots: readonly Snapshot[]): Promise<void> {
  for (const [k, after] of snapshots.entries()) {
    if (k === 0 || !after.wrote) continue;
    const before = snapshots[k - 1];
    const at = inZone(after.wrote.at, ZONES[k % ZONES.length]);
    const justBefore = inZone(after.wrote.justBefore, ZONES[(k + 1) % ZONES.length]);
    for (const type of TYPES) {
      expect(await readLists(type, at), `${type} as of ${at}, after ${after.after}`).toEqual(
        after.lists[type],
      );
      expect(await readLists(type, justBefore), `${type} as of ${justBefore}`).toEqual(
        before.lists[type],
      );
      const body = { from: justBefore, to: at, pageSize: 0 };
      expect(await compare(type, body), `${type} from ${justBefore} to ${at}`).toEqual({
        ...difference(type, before, after),
        from: justBefore,
        to: at,
      });
    }
    writes.push({ before, after, at, justBefore });
  }
}

/**
 * An upload as a comparison's end stands for the state right after the last of its changes was
 * approved: that of the first snapshot after it.
 */
async function checkUploadEnds(snapshots: readonly Snapshot[]): Promise<number> {
  let checked = 0;
  const { rows } = await sql<{ source: string; entity_type: TypeName; at: Date }>`
    select source, entity_type, max(decided_at) as at from app.events
    where context = 'reference' and status = 'approved' and source like 'upload:%'
    group by source, entity_type`.execute(t.database.db);
  for (const row of rows) {
    const k = snapshots.findIndex((s) => Date.parse(s.at) > row.at.getTime());
    if (k <= 0) continue;
    const uploadId = Number(row.source.slice("upload:".length));
    for (const other of [snapshots[0], snapshots[snapshots.length - 1]]) {
      const result = await compare(row.entity_type, { from: uploadId, to: other.at, pageSize: 0 });
      const why = `${row.entity_type} from upload ${uploadId} to ${other.at}`;
      expect(Date.parse(result.from), why).toBeGreaterThan(Date.parse(snapshots[k - 1].at));
      expect(Date.parse(result.from), why).toBeLessThan(Date.parse(snapshots[k].at));
      expect(result, why).toEqual({
        ...difference(row.entity_type, snapshots[k], other),
        from: result.from,
      });
      checked += 1;
    }
  }
  return checked;
}

describe("lists as of a moment and comparisons of two", () => {
  it("answer exactly the lists read at each moment and exactly the differences between them", async () => {
    const succeeded = new Map<string, number>();
    let uploadEnds = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 5, maxLength: 10 }), async (ops) => {
        runNumber += 1;
        const snapshots = [await remember("the start of the run")];
        for (const op of ops) {
          const outcome = await perform(op);
          const step = JSON.stringify(op);
          expect(outcome?.status ?? 200, `${step}: ${outcome?.body}`).toBeLessThan(500);
          if (outcome?.status === 200)
            succeeded.set(outcome.what, (succeeded.get(outcome.what) ?? 0) + 1);
          const wrote = await writtenSince(snapshots[snapshots.length - 1].at);
          snapshots.push({ ...(await remember(step)), wrote });
        }
        const older = [remembered[0], remembered.at(-1) as Snapshot];
        await checkPast(snapshots, older);
        await checkWrites(snapshots);
        uploadEnds += await checkUploadEnds(snapshots);
        remembered.push(...snapshots);
      }),
      { numRuns: 12, seed: 20261127, endOnFailure: true },
    );
    // Not a vacuous pass: every kind of operation did something, and the uploads were compared.
    expect([...succeeded.keys()].sort()).toEqual(
      expect.arrayContaining([
        "approve country",
        "approve currency",
        "delete country",
        "delete currency",
        "reject currency",
        "save country",
        "save currency",
        "upload country",
        "upload currency",
        "verify country",
      ]),
    );
    expect(uploadEnds).toBeGreaterThan(0);
    expect(writes.length).toBeGreaterThan(10);
  }, 300_000);

  // A comparison must tell the later of two moments however close they are. On PostgreSQL a write
  // is stamped to the microsecond, so the moment of a change (as a record's history gives it) and
  // the one just before it mostly fall in one millisecond; PGlite stamps whole milliseconds, so
  // there the two never do.
  it("compares two moments in one millisecond both ways", async () => {
    expect(writes.length, "the writes of the test above").toBeGreaterThan(0);
    for (const w of writes) {
      for (const type of TYPES) {
        const body = { from: w.at, to: w.justBefore, pageSize: 0 };
        expect(await compare(type, body), `${type} from ${w.at} to ${w.justBefore}`).toEqual({
          ...difference(type, w.after, w.before),
          from: w.at,
          to: w.justBefore,
        });
      }
    }
  });
});
