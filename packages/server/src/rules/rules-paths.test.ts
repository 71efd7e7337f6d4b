import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import ExcelJS from "exceljs";
import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords } from "../testing/records-client.ts";
import {
  createSourceDatabase,
  type SourceDatabase,
  sourceServerReachable,
} from "../testing/source-database.ts";
import { tableIndexes } from "../testing/table-indexes.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  credentialHeaders,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import {
  attributeIn,
  layoutIn,
  type ModelFileDoc,
  testModelDir,
  typeIn,
} from "../testing/test-model.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

// Each kind of rule on each path, with a test model: the demo model plus country attributes that
// carry the kinds the demo does not use as errors, a type with a unique rule and no seed (the first
// load of an upload), a date rule that 'Approve as verified' breaks, a hostile pattern, and a rule
// on the Data Dictionary's table names (the metadata import).

const MESSAGES = {
  code3: "Alpha-3 codes are three capital letters",
  motto: "must be between 2 and 10 characters long",
  status: "must be one of active, dormant",
  rank: "must be one of 1, 2, 3",
  founded: "must be on or before Dissolved",
  capital: "is required when Status is active",
  note: "Notes end in c",
  verified: "Verified on or before 2000 only",
  regionName: "must be unique: another record already has this value",
  area: "must be at least 0",
  tableName: "Table names here are at most 5 characters",
  tag: "Tags are letters, digits and underscores",
  anthem: "Another country already has this anthem",
};

const COUNTRY_COLUMNS = [
  { header: "Alpha-3", attribute: "code3" },
  { header: "Motto", attribute: "motto" },
  { header: "Status", attribute: "status" },
  { header: "Rank", attribute: "rank" },
  { header: "Capital", attribute: "capital" },
  { header: "Founded", attribute: "founded" },
  { header: "Dissolved", attribute: "dissolved" },
  { header: "Note", attribute: "note" },
];

function referenceWithRules(doc: ModelFileDoc): void {
  const country = typeIn(doc, "country");
  // An approver's upload applied without review ('Approve everything') needs self-approval.
  country.selfApproval = true;
  country.attributes.push(
    {
      name: "code3",
      uiName: "Alpha-3",
      dataType: "String",
      nullable: true,
      rules: [{ pattern: "[A-Z]{3}", message: MESSAGES.code3 }],
    },
    {
      name: "motto",
      uiName: "Motto",
      dataType: "String",
      nullable: true,
      rules: [{ minLength: 2, maxLength: 10 }],
    },
    {
      name: "status",
      uiName: "Status",
      dataType: "String",
      nullable: true,
      rules: [{ oneOf: ["active", "dormant"] }],
    },
    {
      name: "rank",
      uiName: "Rank",
      dataType: "Number",
      nullable: true,
      rules: [{ oneOf: [1, 2, 3] }],
    },
    { name: "capital", uiName: "Capital", dataType: "String", nullable: true },
    {
      name: "tag",
      uiName: "Tag",
      dataType: "String",
      nullable: true,
      rules: [{ pattern: "\\w+", message: MESSAGES.tag }],
    },
    {
      name: "anthem",
      uiName: "Anthem",
      dataType: "String",
      nullable: true,
      rules: [{ unique: true, severity: "warning", message: MESSAGES.anthem }],
    },
    { name: "founded", uiName: "Founded", dataType: "Date", nullable: true },
    { name: "dissolved", uiName: "Dissolved", dataType: "Date", nullable: true },
    {
      name: "note",
      uiName: "Note",
      dataType: "String",
      nullable: true,
      // Patterns that backtrack catastrophically on a run of a's in a backtracking engine.
      rules: [
        { pattern: "(a|aa)*c", message: MESSAGES.note },
        { pattern: "(a+)+$", message: "Only a's" },
      ],
    },
  );
  country.rules = [
    ...(country.rules ?? []),
    { compare: { left: "founded", op: "<=", right: "dissolved" } },
    { requiredWhen: { attribute: "capital", when: "status", equals: "active" } },
  ];
  attributeIn(doc, "country", "verified_on").rules = [
    { max: "2000-01-01", message: MESSAGES.verified },
  ];
  layoutIn(doc, "countries").columns.push(...COUNTRY_COLUMNS);
  doc.entityTypes.push({
    name: "sales_region",
    uiName: "Sales region",
    uiSequence: 3,
    attributes: [
      { name: "code", uiName: "Code", dataType: "String", identity: true },
      { name: "name", uiName: "Name", dataType: "String", rules: [{ unique: true }] },
      { name: "area", uiName: "Area", dataType: "Number", nullable: true, rules: [{ min: 0 }] },
    ],
  });
  doc.fileLayouts?.push({
    name: "sales_regions",
    uiName: "Regions",
    entityType: "sales_region",
    sheet: "Regions",
    columns: [
      { header: "Code", attribute: "code" },
      { header: "Name", attribute: "name" },
      { header: "Area", attribute: "area" },
    ],
  });
}

/** The Data Dictionary with a rule on the names of data objects. */
const dictionaryWithRule =
  (severity: "error" | "warning") =>
  (doc: ModelFileDoc): void => {
    attributeIn(doc, "dataobject", "name").rules = [
      { maxLength: 5, severity, message: MESSAGES.tableName },
    ];
  };

let t: TestApp;
let modelDir: string;
let connectionsDir: string;
let steward: string;
let approver: string;
let otherSteward: string;
let eurKey: number;

beforeAll(async () => {
  modelDir = await testModelDir({
    "reference.yaml": referenceWithRules,
    "data-dictionary.yaml": dictionaryWithRule("error"),
  });
  connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-connections-"));
  t = await createTestApp({ env: { MODEL_DIR: modelDir, CONNECTIONS_DIR: connectionsDir } });
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "steward2", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  otherSteward = await t.login("steward2", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
  eurKey = (
    await listRecords(t, approver, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: ["EUR"] }],
    })
  ).data[0].entityKeyID;
});
afterAll(async () => {
  await t?.close();
  for (const dir of [modelDir, connectionsDir])
    if (dir) await fs.rm(dir, { recursive: true, force: true });
});

/** A refusal's words: the JSON message, or the text of the routes that answer text. */
function textOf(res: LightMyRequestResponse): string {
  try {
    return (res.json() as { message: string }).message;
  } catch {
    return res.body;
  }
}

const saveCountry = (record: object, cookie = steward) =>
  t.post("/api/save", { context: "reference", entityType: "country", record }, cookie);

/** A new country's record with the values a save needs. */
const newCountry = (iso2: string, values: object = {}) => ({
  iso2,
  name: `${iso2} land`,
  currency: eurKey,
  ...values,
});

async function footprint() {
  const n = async (query: ReturnType<typeof sql<{ n: number }>>) =>
    (await query.execute(t.database.db)).rows[0].n;
  return {
    events: await n(sql`select count(*)::int as n from app.events`),
    countries: await n(sql`select count(*)::int as n from ctx_reference.country`),
    regions: await n(sql`select count(*)::int as n from ctx_reference.sales_region`),
    stages: await n(
      sql`select count(*)::int as n from pg_tables where schemaname = 'app' and tablename like 'ingest_stage_%'`,
    ),
  };
}

async function pendingOf(entityType: string, attribute: string, value: string) {
  const list = await listRecords(t, approver, {
    entityType,
    requirePending: true,
    includeDeleted: true,
    rowConstraints: [{ attribute, operator: "=", values: [value] }],
  });
  return list.data[0]?.pending?.[0];
}

/**
 * Runs `work` watching this process's event loop with a timer ticking every 5 ms: how long the work
 * took, and the longest gap between ticks (a stall of the server), the end of the work included.
 */
async function watchingEventLoop<T>(
  work: () => Promise<T>,
): Promise<{ result: T; ms: number; longestStallMs: number }> {
  let last = performance.now();
  let longest = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const probe = setInterval(tick, 5);
  const started = performance.now();
  try {
    const result = await work();
    tick();
    return { result, ms: performance.now() - started, longestStallMs: longest };
  } finally {
    clearInterval(probe);
  }
}

describe("web saves refuse each kind of error rule with 400 naming the field, and write nothing", () => {
  it.each([
    ["a pattern", { code3: "abc" }, `code3: ${MESSAGES.code3}`],
    ["a minimum length", { motto: "x" }, `motto: ${MESSAGES.motto}`],
    ["a maximum length", { motto: "eleven char" }, `motto: ${MESSAGES.motto}`],
    ["texts to choose from", { status: "closed" }, `status: ${MESSAGES.status}`],
    ["numbers to choose from", { rank: 4 }, `rank: ${MESSAGES.rank}`],
    [
      "a comparison between dates",
      { founded: "2001-01-01", dissolved: "2000-12-31" },
      `founded: ${MESSAGES.founded}`,
    ],
    ["a value required by another", { status: "active" }, `capital: ${MESSAGES.capital}`],
  ])("%s", async (_kind, values, message) => {
    const before = await footprint();
    const created = await saveCountry(newCountry("QM", values));
    expect(created.statusCode).toBe(400);
    expect(textOf(created)).toBe(message);
    const updated = await saveCountry({ iso2: "FR", ...values });
    expect(updated.statusCode).toBe(400);
    expect(textOf(updated)).toBe(message);
    expect(await footprint()).toEqual(before);
  });

  it("accepts values keeping the rules: lengths counted in characters, numbers given as text, a comparison that holds", async () => {
    const res = await saveCountry(
      newCountry("QN", {
        code3: "QNL",
        motto: "🙂".repeat(10),
        status: "active",
        capital: "Qn City",
        rank: "2",
        founded: "2000-01-01",
        dissolved: "2000-01-01",
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await pendingOf("country", "iso2", "QN"))?.attrValues).toMatchObject({
      motto: { value: "🙂".repeat(10) },
      rank: { value: 2 },
    });
  });

  it("judges rules between attributes on the record as the edit leaves it", async () => {
    await sql`update ctx_reference.country set founded = '1990-01-01', status = 'active', capital = 'Vienna'
      where iso2 = 'AT'`.execute(t.database.db);
    const before = await footprint();
    const early = await saveCountry({ iso2: "AT", dissolved: "1980-01-01" });
    expect(textOf(early)).toBe(`founded: ${MESSAGES.founded}`);
    const noCapital = await saveCountry({ iso2: "AT", capital: null });
    expect(textOf(noCapital)).toBe(`capital: ${MESSAGES.capital}`);
    expect(await footprint()).toEqual(before);
    const dormant = await saveCountry({ iso2: "AT", status: "dormant", capital: null });
    expect(dormant.statusCode, dormant.body).toBe(200);
    // The pending change counts: an amendment that would bring 'active' back needs the capital.
    const active = await saveCountry({ iso2: "AT", status: "active" });
    expect(textOf(active)).toBe(`capital: ${MESSAGES.capital}`);
  });

  it("names every failing field at once, value rules and rules between attributes alike", async () => {
    const res = await saveCountry(
      newCountry("QO", { code3: "abc", founded: "2001-01-01", dissolved: "2000-01-01" }),
    );
    expect(res.statusCode).toBe(400);
    expect(textOf(res)).toBe(`code3: ${MESSAGES.code3}; founded: ${MESSAGES.founded}`);
  });
});

describe("a unique rule of severity warning", () => {
  /** The rules the pending change of a country breaks, as the pending screen reads them. */
  const pendingBreaches = async (iso2: string) => {
    const list = await listRecords(t, approver, {
      entityType: "country",
      requirePending: true,
      rowConstraints: [{ attribute: "iso2", operator: "=", values: [iso2] }],
    });
    return list.data[0]?.pending?.[0];
  };

  it("lets a value another country has through, and shows it to the approver on the change", async () => {
    const first = await saveCountry(newCountry("UA", { anthem: "Hymn of the plains" }));
    expect(first.statusCode, first.body).toBe(200);
    // A proposal is no live record: a second proposal of the same anthem is unique so far.
    const second = await saveCountry(newCountry("UB", { anthem: "Hymn of the plains" }));
    expect(second.statusCode, second.body).toBe(200);
    expect((await pendingBreaches("UB"))?.ruleBreaches).toEqual([]);

    const approved = await t.post(
      "/api/approve",
      {
        context: "reference",
        entityType: "country",
        entityEventIds: [(await pendingBreaches("UA"))?.entityEventID],
      },
      approver,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await pendingBreaches("UB"))?.ruleBreaches).toEqual([
      { attribute: "anthem", rule: "anthem unique", message: MESSAGES.anthem, severity: "warning" },
    ]);

    // An anthem no other country has breaks nothing; the country holding one may keep it.
    const other = await saveCountry(newCountry("UC", { anthem: "Song of the hills" }));
    expect(other.statusCode, other.body).toBe(200);
    expect((await pendingBreaches("UC"))?.ruleBreaches).toEqual([]);
    const kept = await saveCountry({ iso2: "UA", anthem: "Hymn of the plains", motto: "Onward" });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((await pendingBreaches("UA"))?.ruleBreaches).toEqual([]);
  });
});

describe("the 'Breaks a rule' filter", () => {
  it("lists a stored value exactly when a save of the same value is refused", async () => {
    await sql`update ctx_reference.country set tag = 'café' where iso2 = 'IT'`.execute(
      t.database.db,
    );
    await sql`update ctx_reference.country set tag = 'cafe_1' where iso2 = 'NL'`.execute(
      t.database.db,
    );
    const refused = await saveCountry({ iso2: "ES", tag: "café" });
    expect(textOf(refused)).toBe(`tag: ${MESSAGES.tag}`);
    const accepted = await saveCountry({ iso2: "ES", tag: "cafe_1" });
    expect(accepted.statusCode, accepted.body).toBe(200);
    const listed = await listRecords(t, approver, {
      entityType: "country",
      breaksRule: true,
      rowConstraints: [{ attribute: "iso2", operator: "=", values: ["IT", "NL"] }],
    });
    expect(listed.data.map((r) => r.keyAttrValues.iso2)).toEqual(["IT"]);
  });
});

describe("the rules a listed record breaks (includeRuleBreaches)", () => {
  it("names each rule the filter judges broken, unique ones against the other live records", async () => {
    // Stored before the rules, as a model change leaves them: written past the checks.
    await sql`update ctx_reference.country set code3 = 'swe', motto = 'x', status = 'gone',
      founded = '2001-01-01', dissolved = '2000-01-01', anthem = 'Northern hymn' where iso2 = 'SE'`.execute(
      t.database.db,
    );
    await sql`update ctx_reference.country set anthem = 'Northern hymn' where iso2 = 'FI'`.execute(
      t.database.db,
    );
    const list = (q: object) =>
      listRecords(t, approver, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["SE", "FI", "NO"] }],
        rowOrders: [{ attribute: "iso2", asc: true }],
        ...q,
      });
    const anthem = { attribute: "anthem", rule: "anthem unique", message: MESSAGES.anthem };
    const byCountry = (data: Awaited<ReturnType<typeof list>>["data"]) =>
      Object.fromEntries(
        data.map((r) => [
          r.keyAttrValues.iso2,
          r.ruleBreaches?.map((b) => `${b.attribute} ${b.severity}: ${b.message}`).sort(),
        ]),
      );

    const listed = await list({ includeRuleBreaches: true });
    expect(byCountry(listed.data)).toEqual({
      FI: [`anthem warning: ${anthem.message}`],
      NO: [],
      SE: [
        `anthem warning: ${anthem.message}`,
        `code3 error: ${MESSAGES.code3}`,
        `founded error: ${MESSAGES.founded}`,
        `motto error: ${MESSAGES.motto}`,
        `status error: ${MESSAGES.status}`,
      ],
    });
    expect(listed.data[0].ruleBreaches).toContainEqual({ ...anthem, severity: "warning" });
    // Exactly the records 'Breaks a rule' lists.
    const filtered = await list({ breaksRule: true });
    expect(filtered.data.map((r) => r.keyAttrValues.iso2)).toEqual(["FI", "SE"]);

    // Exported, 'Breaks a rule' is a work list: a last column names each record's problems.
    const exported = await t.app.inject({
      method: "POST",
      url: "/api/query-xlsx",
      headers: { ...credentialHeaders(approver), "content-type": "application/json" },
      payload: JSON.stringify({
        context: "reference",
        entityType: "country",
        pageSize: 0,
        pageNum: 0,
        breaksRule: true,
        requestedAttributes: ["iso2", "name"],
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["SE", "FI", "NO"] }],
        rowOrders: [{ attribute: "iso2", asc: true }],
      }),
    });
    expect(exported.statusCode, exported.body).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(exported.rawPayload as unknown as ArrayBuffer);
    const sheet = book.worksheets[0];
    const line = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(line(1)).toEqual(["ISO code", "Name", "Problems"]);
    expect(line(2)).toEqual(["FI", "Finland", `Anthem: ${MESSAGES.anthem}`]);
    expect(line(3)[0]).toBe("SE");
    expect(String(line(3)[2]).split("\n").sort()).toEqual(
      [
        `Alpha-3: ${MESSAGES.code3}`,
        `Anthem: ${MESSAGES.anthem}`,
        `Founded: ${MESSAGES.founded}`,
        `Motto: ${MESSAGES.motto}`,
        `Status: ${MESSAGES.status}`,
      ].sort(),
    );
    expect(sheet.rowCount).toBe(3);

    // Once Finland is discontinued, Sweden's anthem is unique; a past moment still shows both as
    // they stood.
    const before = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await sql`update ctx_reference.country set is_deleted = true, version = version + 1,
      updated_at = now() where iso2 = 'FI'`.execute(t.database.db);
    const after = await list({ includeRuleBreaches: true, includeDeleted: true });
    expect(byCountry(after.data).SE).not.toContain(`anthem warning: ${anthem.message}`);
    const past = await list({ includeRuleBreaches: true, asOf: before });
    expect(byCountry(past.data).SE).toContain(`anthem warning: ${anthem.message}`);
    expect(byCountry(past.data).FI).toEqual([`anthem warning: ${anthem.message}`]);

    // Not asked for, not answered.
    expect((await list({})).data.every((r) => r.ruleBreaches === undefined)).toBe(true);
  });
});

describe("custom actions", () => {
  it("refuse with 400 an action whose values break an error rule, and approve nothing", async () => {
    const saved = await saveCountry({ iso2: "SE", population: 10_600_000 });
    expect(saved.statusCode, saved.body).toBe(200);
    const eventId = saved.json().entityEventID as number;
    const before = await footprint();
    const res = await t.post(
      "/api/runaction",
      {
        context: "reference",
        entityType: "country",
        name: "approve_as_verified",
        entityEventIds: [eventId],
      },
      approver,
    );
    expect(res.statusCode).toBe(400);
    expect(textOf(res)).toBe(
      `Nothing was changed. Country 'SE': verified_on: ${MESSAGES.verified}`,
    );
    expect(await footprint()).toEqual(before);
    const { rows } = await sql<{ status: string; new_values: object }>`
      select status, new_values from app.events where event_id = ${eventId}`.execute(t.database.db);
    expect(rows[0]).toEqual({ status: "pending", new_values: { population: 10_600_000 } });
    const se = await listRecords(t, approver, {
      entityType: "country",
      rowConstraints: [{ attribute: "iso2", operator: "=", values: ["SE"] }],
    });
    expect(se.data[0].requested.attrValues).toMatchObject({
      population: { value: null },
      verified_on: { value: null },
    });
    // A plain approval of the same change is not the action's business, and goes through.
    const approved = await t.post(
      "/api/approve",
      { context: "reference", entityType: "country", entityEventIds: [eventId] },
      approver,
    );
    expect(approved.statusCode, approved.body).toBe(200);
  });
});

describe("hostile patterns and values", () => {
  it("answers a 1 MB value against patterns that backtrack elsewhere with 400, in normal time, never stalling the server 200 ms", async () => {
    const value = "a".repeat(1_000_000);
    const before = await footprint();
    const { result, ms, longestStallMs } = await watchingEventLoop(() =>
      saveCountry({ iso2: "FR", note: value }),
    );
    expect(result.statusCode).toBe(400);
    expect(textOf(result)).toBe(`note: ${MESSAGES.note}`);
    expect(ms).toBeLessThan(5_000);
    expect(longestStallMs).toBeLessThan(200);
    expect(await footprint()).toEqual(before);
  });

  it("refuses an uploaded cell of 100,000 a's by row and column, never stalling the server 200 ms", async () => {
    const file = await workbookOf("Countries", [
      ["ISO2", "Name", "Currency", "Note"],
      ["FR", "France", "EUR", "a".repeat(100_000)],
      ["DE", "Germany", "EUR", `${"a".repeat(99_999)}c`],
    ]);
    // A first upload loads what refusals need (the problem list's writer among them): not measured.
    const warmUp = await workbookOf("Countries", [
      ["ISO2", "Name", "Currency", "Note"],
      ["FR", "France", "EUR", "b"],
    ]);
    expect((await upload(t, otherSteward, warmUp, { layout: "countries" })).statusCode).toBe(422);
    const before = await footprint();
    const { result, ms, longestStallMs } = await watchingEventLoop(() =>
      upload(t, steward, file, { layout: "countries" }),
    );
    expect(result.statusCode).toBe(422);
    expect(result.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 2, column 'Note': ${MESSAGES.note}`,
      "row 3, column 'Note': Only a's",
    ]);
    expect(ms).toBeLessThan(10_000);
    expect(longestStallMs).toBeLessThan(200);
    expect(await footprint()).toEqual(before);
  });
});

describe("texts longer than an index holds", () => {
  // Letters in no repeating order (a linear congruential sequence): repeated ones would compress,
  // and the index could take more of them.
  const letters = (n: number) => {
    let seed = 12345;
    return Array.from({ length: n }, () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return String.fromCharCode(65 + (seed % 26));
    }).join("");
  };
  const tooLong = (kind: string, budget: string) =>
    new RegExp(
      `too long to be indexed: about [\\d,]+ bytes once compressed, where an index entry holds ${budget} of a ${kind} text$`,
    );

  it("refuses by field on a save a key or filterable text its index cannot hold, writing nothing", async () => {
    const before = await footprint();
    const created = await saveCountry(newCountry("QL", { name: letters(900_000) }));
    expect(created.statusCode).toBe(400);
    expect(textOf(created)).toMatch(/^name: /);
    expect(textOf(created)).toMatch(tooLong("filterable", "1,340"));
    const key = await saveCountry(newCountry(letters(10_000)));
    expect(key.statusCode).toBe(400);
    expect(textOf(key)).toMatch(/^iso2: /);
    expect(textOf(key)).toMatch(tooLong("filterable", "1,340"));
    expect(await footprint()).toEqual(before);
    // Hex digits do not compress for the database: 2,000 of them cannot be indexed twice.
    const hex = await saveCountry(
      newCountry("QL", {
        name: letters(2000).replace(/[G-Z]/g, (c) => String(c.charCodeAt(0) % 10)),
      }),
    );
    expect(hex.statusCode).toBe(400);
    expect(textOf(hex)).toMatch(tooLong("filterable", "1,340"));
    // Long prose compresses, and its index takes it: stored as it is.
    const prose = "A country with a long and well documented name, ".repeat(120);
    const fits = await saveCountry(newCountry("QL", { name: prose }));
    expect(fits.statusCode, fits.body).toBe(200);
  });

  it("refuses such a cell by row and column in an upload, writing nothing", async () => {
    const file = await workbookOf("Countries", [
      ["ISO2", "Name", "Currency"],
      ["FR", "France", "EUR"],
      [letters(30_000), "Long key land", "EUR"],
    ]);
    const before = await footprint();
    const res = await upload(t, steward, file, { layout: "countries" });
    expect(res.statusCode).toBe(422);
    const lines = res.body.split("\n");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe("The file was refused; nothing was changed. Problems:");
    expect(lines[1]).toMatch(/^row 3, column 'ISO2': /);
    expect(lines[1]).toMatch(tooLong("filterable", "1,340"));
    expect(await footprint()).toEqual(before);
  });
});

describe("uploads", () => {
  const HEADERS = ["ISO2", "Name", "Currency", ...COUNTRY_COLUMNS.map((c) => c.header)];
  /** A country row of the test layout: the demo's three required columns, then the test's. */
  const row = (iso2: string, values: Partial<Record<string, unknown>>) => [
    iso2,
    `${iso2} land`,
    "EUR",
    ...COUNTRY_COLUMNS.map((c) => values[c.attribute] ?? null),
  ];

  it("say how many records they wrote, unreviewed, break a warning rule", async () => {
    await t.createUser({
      username: "chief",
      roles: [
        { context: "reference", role: "steward" },
        { context: "reference", role: "approver" },
      ],
    });
    const chief = await t.login("chief", TEST_USER_PASSWORD);
    // 'Q1' and 'q2' are no ISO 3166-1 codes: a warning of the demo model.
    const file = await workbookOf("Countries", [
      HEADERS,
      row("Q1", {}),
      row("q2", {}),
      row("QW", {}),
    ]);
    const applied = await upload(t, chief, file, { layout: "countries", approveEverything: true });
    expect(applied.statusCode, applied.body).toBe(200);
    expect(applied.body).toMatch(
      /3 added, .*; 3 changes applied; 2 records it wrote break a warning rule$/,
    );

    // Changed again by a file that mends one: only the records it wrote are counted.
    const mended = await workbookOf("Countries", [
      HEADERS,
      row("Q1", { motto: "Onward" }),
      row("q2", {}),
      row("QW", { motto: "Onward" }),
    ]);
    const again = await upload(t, chief, mended, { layout: "countries", approveEverything: true });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.body).toMatch(
      /2 changed, .*; 2 changes applied; 1 record it wrote breaks a warning rule$/,
    );

    // Left for an approver, the warnings show on the pending screen instead.
    const proposed = await workbookOf("Countries", [HEADERS, row("Q3", {})]);
    const pending = await upload(t, steward, proposed, { layout: "countries" });
    expect(pending.statusCode, pending.body).toBe(200);
    expect(pending.body).toMatch(/; 1 change pending approval$/);
  });

  it("refuse each kind of error rule by row, column and message, and write nothing", async () => {
    const before = await footprint();
    const res = await upload(
      t,
      steward,
      await workbookOf("Countries", [
        HEADERS,
        row("QP", { code3: "abc" }),
        row("QQ", { motto: "x" }),
        row("QR", { status: "closed" }),
        row("QS", { rank: 4 }),
        row("QT", { founded: "2001-01-01", dissolved: "2000-01-01" }),
        row("QU", { status: "active" }),
        row("QV", { code3: "QVL", status: "active", capital: "Qv City", rank: 3 }),
      ]),
      { layout: "countries" },
    );
    expect(res.statusCode).toBe(422);
    expect(res.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 2, column 'Alpha-3': ${MESSAGES.code3}`,
      `row 3, column 'Motto': ${MESSAGES.motto}`,
      `row 4, column 'Status': ${MESSAGES.status}`,
      `row 5, column 'Rank': ${MESSAGES.rank}`,
      `row 6, column 'Founded': ${MESSAGES.founded}`,
      `row 7, column 'Capital': ${MESSAGES.capital}`,
    ]);
    expect(res.headers["x-upload-problems"]).toBe("6");
    expect(await footprint()).toEqual(before);
  });

  it("refuse a file that holds one attribute of a rule between attributes but not the other", async () => {
    // A row is judged on its own, as it is read: the file must carry both columns or neither.
    await sql`update ctx_reference.country set status = 'active', capital = 'Brussels' where iso2 = 'BE'`.execute(
      t.database.db,
    );
    const before = await footprint();
    for (const [headers, row, lacking] of [
      [["ISO2", "Name", "Currency", "Status"], ["BE", "Belgium", "EUR", "active"], "Capital"],
      [["ISO2", "Name", "Currency", "Capital"], ["BE", "Belgium", "EUR", null], "Status"],
    ] as const) {
      const res = await upload(
        t,
        otherSteward,
        await workbookOf("Countries", [[...headers], [...row]]),
        {
          layout: "countries",
        },
      );
      expect(res.statusCode).toBe(422);
      expect(res.body).toBe(
        `The file was refused; nothing was changed. Sheet 'Countries' lacks the required column '${lacking}' in row 1`,
      );
    }
    expect(await footprint()).toEqual(before);
  });

  it("judge what a row sets: stored values breaking a rule pass unchanged, and a row changing what a rule reads, or adding a record, is refused", async () => {
    // Values stored before the rules were declared.
    const kept = { code3: "abc", founded: "2001-01-01", dissolved: "2000-01-01" };
    await sql`update ctx_reference.country set code3 = ${kept.code3}, founded = ${kept.founded}::date,
      dissolved = ${kept.dissolved}::date where iso2 in ('PT', 'GR')`.execute(t.database.db);
    const before = await footprint();
    const first = await upload(
      t,
      steward,
      await workbookOf("Countries", [
        HEADERS,
        row("PT", kept),
        row("GR", { ...kept, code3: "abd" }),
        row("QW", kept),
      ]),
      { layout: "countries", deleteMissing: false },
    );
    expect(first.statusCode).toBe(422);
    expect(first.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 3, column 'Alpha-3': ${MESSAGES.code3}`,
      `row 4, column 'Alpha-3': ${MESSAGES.code3}`,
      `row 4, column 'Founded': ${MESSAGES.founded}`,
    ]);
    const second = await upload(
      t,
      steward,
      await workbookOf("Countries", [
        HEADERS,
        row("PT", kept),
        row("GR", { ...kept, dissolved: "1999-01-01" }),
      ]),
      { layout: "countries", deleteMissing: false },
    );
    expect(second.statusCode).toBe(422);
    expect(second.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 3, column 'Founded': ${MESSAGES.founded}`,
    ]);
    expect(await footprint()).toEqual(before);
    const accepted = await upload(
      t,
      steward,
      await workbookOf("Countries", [HEADERS, row("PT", kept), row("GR", kept)]),
      { layout: "countries", deleteMissing: false },
    );
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.body).toMatch(/: 2 rows read - 0 added, 2 changed, 0 missing/);
    // Only the names change (the rows' 'PT land'): the values breaking the rules stay as stored.
    const pending = await Promise.all(["PT", "GR"].map((c) => pendingOf("country", "iso2", c)));
    expect(pending.map((p) => Object.keys(p?.attrValues ?? {}))).toEqual([["name"], ["name"]]);
    const rejected = await t.post(
      "/api/reject",
      {
        context: "reference",
        entityType: "country",
        entityEventIds: pending.map((p) => p?.entityEventID),
      },
      approver,
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    await sql`update ctx_reference.country set code3 = null, founded = null, dissolved = null
      where iso2 in ('PT', 'GR')`.execute(t.database.db);
  });

  describe("into a type that holds no records (the first load on PostgreSQL)", () => {
    const REGION_HEADERS = ["Code", "Name", "Area"];

    it("refuses a value rule, writing nothing", async () => {
      const before = await footprint();
      const res = await upload(
        t,
        steward,
        await workbookOf("Regions", [REGION_HEADERS, ["R1", "North", -1], ["R2", "South", 3]]),
        { layout: "sales_regions" },
      );
      expect(res.statusCode).toBe(422);
      expect(res.body.split("\n")).toEqual([
        "The file was refused; nothing was changed. Problems:",
        `row 2, column 'Area': ${MESSAGES.area}`,
      ]);
      expect(await footprint()).toEqual(before);
    });

    it("refuses names repeated in the file, naming each row, offers them to fix, and loads the fixed list", async () => {
      const before = await footprint();
      const identityIndex = async () =>
        (await tableIndexes(t.database.db, "ctx_reference.sales_region")).find((i) =>
          i.definition.startsWith("CREATE UNIQUE INDEX"),
        );
      const indexBefore = await identityIndex();
      expect(indexBefore).toBeDefined();
      const res = await upload(
        t,
        steward,
        await workbookOf("Regions", [
          REGION_HEADERS,
          ["R1", "North", 10],
          ["R2", "South", 20],
          ["R3", "North", 30],
          ["R4", "East", 40],
          ["R5", "South", 50],
        ]),
        { layout: "sales_regions", fileName: "regions.xlsx" },
      );
      expect(res.statusCode).toBe(422);
      expect(res.body.split("\n")).toEqual([
        "The file was refused; nothing was changed. Problems:",
        `row 2, column 'Name': ${MESSAGES.regionName}`,
        `row 3, column 'Name': ${MESSAGES.regionName}`,
        `row 4, column 'Name': ${MESSAGES.regionName}`,
        `row 6, column 'Name': ${MESSAGES.regionName}`,
      ]);
      expect(res.headers["x-upload-problems"]).toBe("4");
      expect(await footprint()).toEqual(before);
      // Rolled back whole: the first load's dropped and rebuilt indexes are the ones of before.
      expect(await identityIndex()).toEqual(indexBefore);

      const uploadId = Number(res.headers["x-upload-id"]);
      expect((await t.post("/api/upload-problems", { uploadId }, otherSteward)).statusCode).toBe(
        404,
      );
      const list = await t.post("/api/upload-problems", { uploadId }, steward);
      expect(list.statusCode, list.body).toBe(200);
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(list.rawPayload as unknown as ArrayBuffer);
      const sheet = wb.getWorksheet("Regions") as ExcelJS.Worksheet;
      const rows: unknown[][] = [];
      sheet.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
      const problem = `Name: ${MESSAGES.regionName}`;
      expect(rows).toEqual([
        [...REGION_HEADERS, "Problems", "Row in the uploaded file"],
        ["R1", "North", 10, problem, 2],
        ["R2", "South", 20, problem, 3],
        ["R3", "North", 30, problem, 4],
        ["R5", "South", 50, problem, 6],
      ]);
      sheet.getCell("B4").value = "Northwest";
      sheet.getCell("B5").value = "Southwest";
      const fixed = await upload(t, steward, Buffer.from(await wb.xlsx.writeBuffer()), {
        layout: "sales_regions",
        fileName: "regions - problems.xlsx",
      });
      expect(fixed.statusCode, fixed.body).toBe(200);
      expect(fixed.body).toBe(
        "regions - problems.xlsx: 4 rows read - 4 added, 0 changed, 0 missing, 0 unchanged; 4 changes pending approval",
      );
      // On PostgreSQL this was the first load, which builds the identity index again.
      if (testDatabaseKind() === "postgres")
        expect((await identityIndex())?.oid).not.toBe(indexBefore?.oid);
    });

    it("then, holding records, refuses a name another region has (the diff)", async () => {
      const pending = await listRecords(t, approver, {
        entityType: "sales_region",
        requirePending: true,
        pageSize: 0,
      });
      const approved = await t.post(
        "/api/approve",
        {
          context: "reference",
          entityType: "sales_region",
          entityEventIds: pending.data.map((r) => r.pending?.[0].entityEventID),
        },
        approver,
      );
      expect(approved.statusCode, approved.body).toBe(200);
      const before = await footprint();
      const res = await upload(
        t,
        steward,
        await workbookOf("Regions", [REGION_HEADERS, ["R6", "Northwest", 60], ["R7", "West", 70]]),
        { layout: "sales_regions" },
      );
      expect(res.statusCode).toBe(422);
      expect(res.body.split("\n")).toEqual([
        "The file was refused; nothing was changed. Problems:",
        `row 2, column 'Name': ${MESSAGES.regionName}`,
      ]);
      expect(await footprint()).toEqual(before);
      // A record taking over a name another record of the file gives up is fine.
      const swap = await upload(
        t,
        steward,
        await workbookOf("Regions", [REGION_HEADERS, ["R1", "Far north"], ["R6", "North"]]),
        { layout: "sales_regions" },
      );
      expect(swap.statusCode, swap.body).toBe(200);
    });
  });
});

const reachable = await sourceServerReachable();
if (!reachable)
  console.warn(
    "No PostgreSQL server for source databases: the metadata import rule tests are skipped",
  );

describe.skipIf(!reachable)("metadata imports of the Data Dictionary", () => {
  const DD = "Data Dictionary";
  let source: SourceDatabase;

  beforeAll(async () => {
    source = await createSourceDatabase([
      "create schema shop",
      "create table shop.items (id int primary key)",
      "create table shop.customers (id int primary key)",
    ]);
    await fs.writeFile(
      path.join(connectionsDir, "src.conf"),
      `[source]\nhost=${source.host}\nport=${source.port}\ndbname=${source.name}\nuser=${source.user}\n`,
    );
    await fs.writeFile(
      path.join(connectionsDir, ".pgpass"),
      `${source.host}:${source.port}:*:${source.user}:unused-with-trust\n`,
      { mode: 0o600 },
    );
  });
  afterAll(() => source?.drop());

  /** A metadata source of the app reading the source database; answers its key. */
  async function metadataSource(app: TestApp, admin: string): Promise<number> {
    const keyOf = async (entityType: string, name: string) =>
      (
        await listRecords(app, admin, {
          context: DD,
          entityType,
          rowConstraints: [{ attribute: "name", operator: "=", values: [name] }],
        })
      ).data[0].entityKeyID;
    const save = (entityType: string, record: object) =>
      app.post("/api/save", { context: DD, entityType, record, action: "create" }, admin);
    const env = await save("systemenvironment", {
      name: "Shop DB",
      description: "The shop database",
      technology: "postgres",
      connectionfile: "src.conf",
    });
    expect(env.statusCode, env.body).toBe(200);
    const src = await save("metadatasource", {
      application: await keyOf("application", "Demo"),
      applicationaspect: await keyOf("applicationaspect", "Operational"),
      systemenvironment: env.json().entityKeyID,
      name: "Shop",
      description: "Shop tables",
      importfrequency: "0 3 * * *",
      enableschedule: false,
    });
    expect(src.statusCode, src.body).toBe(200);
    return src.json().entityKeyID;
  }

  const importFrom = (app: TestApp, admin: string, key: number) =>
    app.post("/data-dictionary/import-metadata-from-source", { EntityKeyID: key }, admin);

  it("refuses an import whose table names break an error rule, importing nothing", async () => {
    const admin = await t.login("admin", ADMIN_PASSWORD);
    const key = await metadataSource(t, admin);
    const before = await sql<{ n: number }>`select count(*)::int as n from app.events`.execute(
      t.database.db,
    );
    const res = await importFrom(t, admin, key);
    expect(res.statusCode).toBe(422);
    expect(textOf(res).split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 1, column 'name': ${MESSAGES.tableName}`,
    ]);
    const after = await sql<{ n: number }>`select count(*)::int as n from app.events`.execute(
      t.database.db,
    );
    expect(after.rows[0].n).toBe(before.rows[0].n);
    const objects = await listRecords(t, admin, {
      context: DD,
      entityType: "dataobject",
      requirePending: true,
      includeDeleted: true,
    });
    expect(objects.querySize).toBe(0);
  });

  it("imports the same source once the rule is a warning, showing it on the pending change", async () => {
    const relaxedDir = await testModelDir({
      "reference.yaml": referenceWithRules,
      "data-dictionary.yaml": dictionaryWithRule("warning"),
    });
    const relaxed = await createTestApp({
      env: { MODEL_DIR: relaxedDir, CONNECTIONS_DIR: connectionsDir },
    });
    try {
      const admin = await relaxed.login("admin", ADMIN_PASSWORD);
      const key = await metadataSource(relaxed, admin);
      const res = await importFrom(relaxed, admin, key);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().Msg).toMatch(/^metadata imported: 2 data objects \(2 added,/);
      const objects = await listRecords(relaxed, admin, {
        context: DD,
        entityType: "dataobject",
        requirePending: true,
        pageSize: 0,
        rowOrders: [{ attribute: "name", asc: true }],
      });
      expect(
        objects.data.map((o) => [
          o.keyAttrValues.name,
          o.pending?.[0].ruleBreaches?.map((b) => [b.attribute, b.severity, b.message]),
        ]),
      ).toEqual([
        ["customers", [["name", "warning", MESSAGES.tableName]]],
        ["items", []],
      ]);
    } finally {
      await relaxed.close();
      await fs.rm(relaxedDir, { recursive: true, force: true });
    }
  });
});
