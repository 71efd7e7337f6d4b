import { type PendingChange, todayIso } from "@ledgerline/contract";
import ExcelJS from "exceljs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf } from "../testing/records-client.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

// The demo model's rules (model/reference.yaml) on the web and upload paths, and the explorer's
// 'Breaks a rule' filter over records stored before a rule existed.

let t: TestApp;
let steward: string;
let otherSteward: string;
let approver: string;
let admin: string;
let eurKey: number;

const COUNTRY_HEADERS = ["ISO2", "Name", "Currency", "Population", "Joined EU", "EU member"];
const NEGATIVE = "Population cannot be negative";
const FUTURE = "The date of joining the EU cannot be in the future";
const TAKEN = "No two countries share a name";
const CROWDED = "More people than any country has: check the figure";
const NO_DATE = "An EU member is expected to have the date it joined";

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "steward2", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  otherSteward = await t.login("steward2", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
  admin = await t.login("admin", ADMIN_PASSWORD);
  eurKey = (
    await listRecords(t, approver, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: ["EUR"] }],
    })
  ).data[0].entityKeyID;
});
afterAll(() => t.close());

const saveCountry = (record: object, cookie = steward) =>
  t.post("/api/save", { context: "reference", entityType: "country", record }, cookie);

async function count(query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
  return (await query.execute(t.database.db)).rows[0].n;
}

/** What a refusal must leave as it was: events, records of both types, stage tables. */
async function footprint() {
  return {
    events: await count(sql`select count(*)::int as n from app.events`),
    countries: await count(sql`select count(*)::int as n from ctx_reference.country`),
    currencies: await count(sql`select count(*)::int as n from ctx_reference.currency`),
    stages: await count(
      sql`select count(*)::int as n from pg_tables where schemaname = 'app' and tablename like 'ingest_stage_%'`,
    ),
  };
}

/** The stored row of a country, pending proposals included. */
async function storedCountry(iso2: string) {
  const { rows } = await sql<{
    entity_key_id: number;
    population: number | null;
    name: string;
  }>`select entity_key_id, population, name from ctx_reference.country where iso2 = ${iso2}`.execute(
    t.database.db,
  );
  return rows[0];
}

/** The pending change of a country, as the pending screen reads it. */
async function pendingChangeOf(iso2: string): Promise<PendingChange | undefined> {
  const list = await listRecords(t, approver, {
    entityType: "country",
    requirePending: true,
    includeDeleted: true,
    rowConstraints: [{ attribute: "iso2", operator: "=", values: [iso2] }],
  });
  return list.data[0]?.pending?.[0];
}

/** Countries stored directly, as if they were there before their rules were declared. */
async function storeCountries(
  rows: {
    iso2: string;
    name: string;
    population?: number;
    joined_eu?: string;
    eu_member?: boolean;
    deleted?: boolean;
  }[],
): Promise<void> {
  for (const r of rows)
    await sql`insert into ctx_reference.country (iso2, name, currency, population, joined_eu, eu_member, is_deleted, created_by, updated_by)
      values (${r.iso2}, ${r.name}, ${eurKey}, ${r.population ?? null}, ${r.joined_eu ?? null}::date,
        ${r.eu_member ?? null}, ${r.deleted ?? false}, 'test', 'test')`.execute(t.database.db);
}

async function removeCountries(iso2s: string[]): Promise<void> {
  await sql`delete from ctx_reference.country where iso2 = any(${iso2s}::text[])`.execute(
    t.database.db,
  );
}

describe("the 'Breaks a rule' filter", () => {
  const STORED = ["QX", "QY", "Q1", "QZ", "XQ", "XR", "XS", "XT"];
  afterAll(() => removeCountries(STORED));

  it("lists exactly the stored records that break a rule, counted and paged, and exports only them", async () => {
    expect(
      (await listRecords(t, approver, { entityType: "country", breaksRule: true })).data,
    ).toEqual([]);
    await storeCountries([
      { iso2: "QX", name: "Qxland", population: -5 }, // population >= 0 (error)
      { iso2: "QY", name: "Qyland", joined_eu: "2999-01-01", eu_member: true }, // joined_eu <= today
      { iso2: "Q1", name: "Qoneland" }, // iso2 pattern (warning)
      { iso2: "QZ", name: "Germany" }, // unique name: DE breaks it too now
      { iso2: "XQ", name: "Crowdland", population: 3_000_000_000 }, // population <= 2e9 (warning)
      { iso2: "XR", name: "Eurland", eu_member: true }, // joined_eu required when eu_member (warning)
      { iso2: "XS", name: "Fineland", population: 10, joined_eu: "2004-05-01", eu_member: true },
      { iso2: "XT", name: "Goneland", population: -1, deleted: true },
    ]);
    const expected = ["DE", "Q1", "QX", "QY", "QZ", "XQ", "XR"];
    const pages: string[] = [];
    for (const pageNum of [1, 2, 3]) {
      const page = await listRecords(t, approver, {
        entityType: "country",
        breaksRule: true,
        pageSize: 3,
        pageNum,
        rowOrders: [{ attribute: "iso2", asc: true }],
      });
      expect(page.querySize).toBe(expected.length);
      pages.push(...page.data.map((r) => String(r.keyAttrValues.iso2)));
    }
    expect(pages).toEqual(expected);

    // It narrows like any other filter, and shows discontinued records only when asked to.
    const narrowed = await listRecords(t, approver, {
      entityType: "country",
      breaksRule: true,
      rowConstraints: [{ attribute: "iso2", operator: "StartsWith", values: ["Q"] }],
    });
    expect(narrowed.querySize).toBe(4);
    const withDeleted = await listRecords(t, approver, {
      entityType: "country",
      breaksRule: true,
      includeDeleted: true,
      pageSize: 0,
    });
    expect(withDeleted.data.map((r) => r.keyAttrValues.iso2).sort()).toEqual(
      [...expected, "XT"].sort(),
    );
    // A type whose stored records keep its rules lists nothing.
    const currencies = await listRecords(t, approver, { entityType: "currency", breaksRule: true });
    expect([currencies.querySize, currencies.data]).toEqual([0, []]);

    const res = await t.app.inject({
      method: "POST",
      url: "/api/query-xlsx",
      headers: {
        cookie: approver,
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      payload: JSON.stringify({
        context: "reference",
        entityType: "country",
        breaksRule: true,
        requestedAttributes: ["iso2", "name"],
        rowOrders: [{ attribute: "iso2", asc: true }],
      }),
    });
    expect(res.statusCode, res.body).toBe(200);
    const sheet = await worksheetOf(res.rawPayload);
    // A work list: a last column names each record's problems.
    expect(rowsOf(sheet)).toEqual([
      ["ISO code", "Name", "Problems"],
      ["DE", "Germany", `Name: ${TAKEN}`],
      ["Q1", "Qoneland", "ISO code: ISO 3166-1 codes are two capital letters"],
      ["QX", "Qxland", "Population: Population cannot be negative"],
      ["QY", "Qyland", "Joined EU: The date of joining the EU cannot be in the future"],
      ["QZ", "Germany", `Name: ${TAKEN}`],
      ["XQ", "Crowdland", "Population: More people than any country has: check the figure"],
      ["XR", "Eurland", "Joined EU: An EU member is expected to have the date it joined"],
    ]);
  });
});

describe("web saves", () => {
  it("refuse a negative population and a future 'joined EU' with 400 naming each field, and write nothing", async () => {
    const before = await footprint();
    const created = await saveCountry({
      iso2: "QM",
      name: "Qmland",
      currency: eurKey,
      population: -1,
      joined_eu: "2999-01-01",
      eu_member: true,
    });
    expect(created.statusCode).toBe(400);
    expect(messageOf(created)).toBe(`population: ${NEGATIVE}; joined_eu: ${FUTURE}`);
    const updated = await saveCountry({ iso2: "FR", population: -1 });
    expect(updated.statusCode).toBe(400);
    expect(messageOf(updated)).toBe(`population: ${NEGATIVE}`);
    const future = await saveCountry({ iso2: "FR", joined_eu: "2999-12-31" });
    expect(messageOf(future)).toBe(`joined_eu: ${FUTURE}`);
    expect(await footprint()).toEqual(before);
    expect(await storedCountry("QM")).toBeUndefined();
    expect(await pendingChangeOf("FR")).toBeUndefined();
  });

  it("accept the bounds themselves: a population of 0 and 'joined EU' today", async () => {
    const res = await saveCountry({ iso2: "LU", population: 0, joined_eu: todayIso() });
    expect(res.statusCode, res.body).toBe(200);
    expect(await pendingChangeOf("LU")).toMatchObject({
      action: "Update",
      attrValues: { population: { value: 0 }, joined_eu: { value: todayIso() } },
      ruleBreaches: [],
    });
  });

  it("refuse an amendment of a pending change that breaks a rule, keeping the change as it was", async () => {
    const first = await saveCountry({ iso2: "BE", population: 11_700_000 });
    expect(first.statusCode, first.body).toBe(200);
    const before = await footprint();
    const amended = await saveCountry({ iso2: "BE", population: -11_700_000 });
    expect(amended.statusCode).toBe(400);
    expect(messageOf(amended)).toBe(`population: ${NEGATIVE}`);
    expect(await footprint()).toEqual(before);
    expect(await pendingChangeOf("BE")).toMatchObject({
      entityEventID: first.json().entityEventID,
      attrValues: { population: { value: 11_700_000 } },
    });
  });

  it("refuse a name another country has, and let the country holding it be edited", async () => {
    const before = await footprint();
    const twin = await saveCountry({ iso2: "QN", name: "Germany", currency: eurKey });
    expect(twin.statusCode).toBe(400);
    expect(messageOf(twin)).toBe(`name: ${TAKEN}`);
    const renamed = await saveCountry({ iso2: "FR", name: "Germany" });
    expect(renamed.statusCode).toBe(400);
    expect(messageOf(renamed)).toBe(`name: ${TAKEN}`);
    expect(await footprint()).toEqual(before);

    const holder = await saveCountry({ iso2: "DE", population: 84_000_000 });
    expect(holder.statusCode, holder.body).toBe(200);
    // Sending the name it holds, with its pending change amended, is no clash with itself.
    const again = await saveCountry({ iso2: "DE", name: "Germany", population: 84_100_000 });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().Msg).toBe("Pending change to Country 'DE' amended");
    // A name nobody holds is fine, and so is a proposal's own name when it is amended.
    const fresh = await saveCountry({ iso2: "QN", name: "Qnland", currency: eurKey });
    expect(fresh.statusCode, fresh.body).toBe(200);
    const amended = await saveCountry({ iso2: "QN", name: "Qnland", population: 5 });
    expect(amended.statusCode, amended.body).toBe(200);
  });

  it("let warnings through as pending changes that carry them for the approver", async () => {
    const created = await saveCountry({
      iso2: "QO",
      name: "Qoland",
      currency: eurKey,
      population: 3_000_000_000,
      eu_member: true,
    });
    expect(created.statusCode, created.body).toBe(200);
    expect(created.json()).toMatchObject({ pending: true });
    expect((await pendingChangeOf("QO"))?.ruleBreaches).toEqual([
      {
        attribute: "population",
        rule: "population in [, 2000000000]",
        message: CROWDED,
        severity: "warning",
      },
      {
        attribute: "joined_eu",
        rule: "joined_eu required when eu_member = true",
        message: NO_DATE,
        severity: "warning",
      },
    ]);

    const odd = await saveCountry({ iso2: "q2", name: "Lowland", currency: eurKey });
    expect(odd.statusCode, odd.body).toBe(200);
    expect((await pendingChangeOf("q2"))?.ruleBreaches).toEqual([
      {
        attribute: "iso2",
        rule: "iso2 matches [A-Z]{2}",
        message: "ISO 3166-1 codes are two capital letters",
        severity: "warning",
      },
    ]);

    // An edit is judged with the stored record: AT is an EU member with its date.
    const edited = await saveCountry({ iso2: "AT", population: 2_500_000_000 });
    expect(edited.statusCode, edited.body).toBe(200);
    const change = await pendingChangeOf("AT");
    expect(change?.ruleBreaches?.map((b) => b.message)).toEqual([CROWDED]);

    // Clearing the date of a member is a warning about the record as the change leaves it.
    const cleared = await saveCountry({ iso2: "CY", joined_eu: null });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect((await pendingChangeOf("CY"))?.ruleBreaches?.map((b) => b.message)).toEqual([NO_DATE]);

    // The approver approves a change with a warning like any other.
    const approved = await t.post(
      "/api/approve",
      { context: "reference", entityType: "country", entityEventIds: [change?.entityEventID] },
      approver,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    expect((await storedCountry("AT")).population).toBe(2_500_000_000);
  });

  it("never let two proposals of one name both become live records, by approval or by action", async () => {
    const first = await saveCountry({ iso2: "QR", name: "Dupland", currency: eurKey });
    const second = await saveCountry(
      { iso2: "QS", name: "Dupland", currency: eurKey },
      otherSteward,
    );
    const third = await saveCountry({
      iso2: "QT",
      population: 1,
      name: "Dupland",
      currency: eurKey,
    });
    // Proposals are no live records: each is unique when it is made.
    for (const res of [first, second, third]) expect(res.statusCode, res.body).toBe(200);
    const idOf = (res: typeof first) => res.json().entityEventID as number;
    const approve = (...ids: number[]) =>
      t.post(
        "/api/approve",
        { context: "reference", entityType: "country", entityEventIds: ids },
        approver,
      );
    const clash = `name: ${TAKEN} ('Dupland')`;
    const together = await approve(idOf(first), idOf(second));
    expect(together.statusCode).toBe(409);
    expect(messageOf(together)).toBe(
      `Nothing was approved: approving these changes would break a rule. ${clash}`,
    );
    expect((await approve(idOf(first))).statusCode).toBe(200);
    const later = await approve(idOf(second));
    expect(later.statusCode).toBe(409);
    expect(messageOf(later)).toContain(clash);
    const action = await t.post(
      "/api/runaction",
      {
        context: "reference",
        entityType: "country",
        name: "approve_as_verified",
        entityEventIds: [idOf(third)],
      },
      approver,
    );
    expect(action.statusCode).toBe(400);
    expect(messageOf(action)).toBe(`Nothing was changed. Country 'QT': name: ${TAKEN}`);
    const live = await listRecords(t, approver, {
      entityType: "country",
      rowConstraints: [{ attribute: "name", operator: "=", values: ["Dupland"] }],
    });
    expect(live.data.map((r) => r.keyAttrValues.iso2)).toEqual(["QR"]);
    expect((await pendingChangeOf("QS"))?.entityEventID).toBe(idOf(second));
    expect((await pendingChangeOf("QT"))?.entityEventID).toBe(idOf(third));
  });

  it("let a record that broke a rule before the rule existed be edited in another field, not in the broken one", async () => {
    await storeCountries([{ iso2: "QP", name: "Germany", population: -7 }]);
    try {
      const edit = await saveCountry({ iso2: "QP", eu_member: false });
      expect(edit.statusCode, edit.body).toBe(200);
      const approved = await t.post(
        "/api/approve",
        {
          context: "reference",
          entityType: "country",
          entityEventIds: [edit.json().entityEventID],
        },
        approver,
      );
      expect(approved.statusCode, approved.body).toBe(200);
      // Its values stay as they were: a new rule never changes stored records.
      expect(await storedCountry("QP")).toMatchObject({ population: -7, name: "Germany" });
      const broken = await saveCountry({ iso2: "QP", population: -8 });
      expect(messageOf(broken)).toBe(`population: ${NEGATIVE}`);
      const renamed = await saveCountry({ iso2: "QP", name: "France" });
      expect(messageOf(renamed)).toBe(`name: ${TAKEN}`);
    } finally {
      await removeCountries(["QP"]);
    }
  });
});

async function worksheetOf(body: Buffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets[0];
}

/** A sheet's rows as plain values (dates as YYYY-MM-DD, empty cells as null), header row first. */
function rowsOf(sheet: ExcelJS.Worksheet): unknown[][] {
  const width = sheet.getRow(1).cellCount;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => {
    const cells: unknown[] = [];
    for (let c = 1; c <= width; c++) {
      const value = row.getCell(c).value;
      cells.push(value instanceof Date ? value.toISOString().slice(0, 10) : (value ?? null));
    }
    rows.push(cells);
  });
  return rows;
}

async function problemListOf(uploadId: number, cookie: string) {
  return t.post("/api/upload-problems", { uploadId }, cookie);
}

describe("uploads", () => {
  const PROBLEM_HEADERS = [...COUNTRY_HEADERS, "Problems", "Row in the uploaded file"];
  const breaches = [
    COUNTRY_HEADERS,
    ["QJ", "Qjland", "EUR", -1, null, false],
    ["QB", "Qbland", "EUR", 1000, "2999-01-01", true],
    ["FR", "France", "EUR", 68_000_000, "1958-01-01", true],
    ["QC", "Qcland", "EUR", 3_000_000_000, null, false],
    ["QD", "Qdland", "EUR", -2, "2999-02-02", true],
  ];

  it("refuse a workbook whose rows break rules: every failing row by row, column and message; nothing written", async () => {
    const before = await footprint();
    const res = await upload(t, steward, await workbookOf("Countries", breaches), {
      layout: "countries",
      fileName: "breaches.xlsx",
    });
    expect(res.statusCode).toBe(422);
    expect(res.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 2, column 'Population': ${NEGATIVE}`,
      `row 3, column 'Joined EU': ${FUTURE}`,
      `row 6, column 'Population': ${NEGATIVE}`,
      `row 6, column 'Joined EU': ${FUTURE}`,
    ]);
    expect(res.headers["x-upload-problems"]).toBe("3");
    expect(await footprint()).toEqual(before);
  });

  it("list the first 50 problems in the text and every failing row in the problem list", async () => {
    const rows = Array.from({ length: 60 }, (_, i) => [
      `X${String.fromCharCode(66 + Math.floor(i / 26))}${String.fromCharCode(65 + (i % 26))}`,
      `Many ${i}`,
      "EUR",
      -1 - i,
      null,
      false,
    ]);
    const res = await upload(
      t,
      steward,
      await workbookOf("Countries", [COUNTRY_HEADERS, ...rows]),
      {
        layout: "countries",
      },
    );
    expect(res.statusCode).toBe(422);
    const lines = res.body.split("\n");
    expect(lines[0]).toBe("The file was refused; nothing was changed. The first 50 problems:");
    expect(lines.slice(1)).toEqual(
      Array.from({ length: 50 }, (_, i) => `row ${i + 2}, column 'Population': ${NEGATIVE}`),
    );
    expect(res.headers["x-upload-problems"]).toBe("60");
    const list = await problemListOf(Number(res.headers["x-upload-id"]), steward);
    const sheet = await worksheetOf(list.rawPayload);
    expect(rowsOf(sheet).slice(1)).toEqual(
      rows.map((r, i) => [...r, `Population: ${NEGATIVE}`, i + 2]),
    );
  });

  it("offer the failing rows as a workbook to fix, to the uploader (and administrators) only, which uploads once fixed", async () => {
    const res = await upload(t, steward, await workbookOf("Countries", breaches), {
      layout: "countries",
      fileName: "breaches.xlsx",
    });
    expect(res.statusCode).toBe(422);
    const uploadId = Number(res.headers["x-upload-id"]);
    const list = await problemListOf(uploadId, steward);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.headers["content-type"]).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(list.headers["content-disposition"]).toBe(
      "attachment; filename*=UTF-8''breaches%20-%20problems.xlsx",
    );
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(list.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(["Countries"]);
    const sheet = wb.worksheets[0];
    expect(rowsOf(sheet)).toEqual([
      PROBLEM_HEADERS,
      ["QJ", "Qjland", "EUR", -1, null, false, `Population: ${NEGATIVE}`, 2],
      ["QB", "Qbland", "EUR", 1000, "2999-01-01", true, `Joined EU: ${FUTURE}`, 3],
      [
        "QD",
        "Qdland",
        "EUR",
        -2,
        "2999-02-02",
        true,
        `Population: ${NEGATIVE}\nJoined EU: ${FUTURE}`,
        6,
      ],
    ]);

    expect((await problemListOf(uploadId, otherSteward)).statusCode).toBe(404);
    expect((await problemListOf(uploadId, admin)).statusCode).toBe(200);
    expect((await problemListOf(999_999, steward)).statusCode).toBe(404);
    // An upload that was not refused for its rows has no list.
    const fine = await upload(t, steward, await workbookOf("Countries", [COUNTRY_HEADERS]), {
      layout: "countries",
    });
    expect(fine.headers["x-upload-problems"]).toBeUndefined();
    expect((await problemListOf(Number(fine.headers["x-upload-id"]), steward)).statusCode).toBe(
      404,
    );

    // The person fixes the rows where they are; the two extra columns are ignored.
    sheet.getCell("D2").value = 1;
    sheet.getCell("E3").value = null;
    sheet.getCell("D4").value = 2;
    sheet.getCell("E4").value = null;
    const fixed = Buffer.from(await wb.xlsx.writeBuffer());
    const again = await upload(t, steward, fixed, {
      layout: "countries",
      fileName: "breaches - problems.xlsx",
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.body).toBe(
      "breaches - problems.xlsx: 3 rows read - 3 added, 0 changed, 0 missing, 0 unchanged; 3 changes pending approval",
    );
    expect((await pendingChangeOf("QD"))?.attrValues).toMatchObject({
      population: { value: 2 },
      joined_eu: { value: null },
      eu_member: { value: true },
    });
    // A warning never refuses a row: it waits for the approver, on the pending change.
    expect((await pendingChangeOf("QD"))?.ruleBreaches?.map((b) => b.message)).toEqual([NO_DATE]);
  });

  const twins = [
    COUNTRY_HEADERS,
    ["QE", "Twinland", "EUR", 5, "2001-01-01", true],
    ["AT", "Austria", "EUR", 9_000_000, "1995-01-01", true],
    ["QF", "Twinland", "EUR", 6, null, false],
    ["QG", "Germany", "EUR", 7, null, false],
    // Swapping two names inside one file is no clash.
    ["SE", "Finland", "EUR", null, "1995-01-01", true],
    ["FI", "Sweden", "EUR", null, "1995-01-01", true],
  ];

  it("refuse names repeated in the file or held by another country, naming every such row", async () => {
    const before = await footprint();
    const res = await upload(t, otherSteward, await workbookOf("Countries", twins), {
      layout: "countries",
      fileName: "twins.xlsx",
    });
    expect(res.statusCode).toBe(422);
    expect(res.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 2, column 'Name': ${TAKEN}`,
      `row 4, column 'Name': ${TAKEN}`,
      `row 5, column 'Name': ${TAKEN}`,
    ]);
    expect(res.headers["x-upload-problems"]).toBe("3");
    expect(await footprint()).toEqual(before);
  });

  it("offer rows refused for a unique rule as uploaded, references as the file gave them, so that the fixed list uploads", async () => {
    const res = await upload(t, otherSteward, await workbookOf("Countries", twins), {
      layout: "countries",
      fileName: "twins.xlsx",
    });
    expect(res.statusCode).toBe(422);
    const list = await problemListOf(Number(res.headers["x-upload-id"]), otherSteward);
    expect(list.statusCode, list.body).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(list.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    expect
      .soft(rowsOf(sheet))
      .toEqual([
        PROBLEM_HEADERS,
        ["QE", "Twinland", "EUR", 5, "2001-01-01", true, `Name: ${TAKEN}`, 2],
        ["QF", "Twinland", "EUR", 6, null, false, `Name: ${TAKEN}`, 4],
        ["QG", "Germany", "EUR", 7, null, false, `Name: ${TAKEN}`, 5],
      ]);
    sheet.getCell("B3").value = "Qfland";
    sheet.getCell("B4").value = "Qgland";
    const again = await upload(t, otherSteward, Buffer.from(await wb.xlsx.writeBuffer()), {
      layout: "countries",
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.body).toMatch(/3 rows read - 3 added/);
  });

  it("report rows breaking value rules and rows breaking unique ones in the same refusal", async () => {
    const before = await footprint();
    const res = await upload(
      t,
      otherSteward,
      await workbookOf("Countries", [
        COUNTRY_HEADERS,
        ["QH", "Qhland", "EUR", -1, null, false],
        ["QI", "Qiland", "EUR", 7, "2999-01-01", true],
        ["QK", "Twinland", "EUR", 8, null, false],
        ["QL", "Twinland", "EUR", 9, null, false],
        ["XA", "Germany", "EUR", 10, null, false],
      ]),
      { layout: "countries" },
    );
    expect(res.statusCode).toBe(422);
    expect(res.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 2, column 'Population': ${NEGATIVE}`,
      `row 3, column 'Joined EU': ${FUTURE}`,
      `row 4, column 'Name': ${TAKEN}`,
      `row 5, column 'Name': ${TAKEN}`,
      `row 6, column 'Name': ${TAKEN}`,
    ]);
    expect(res.headers["x-upload-problems"]).toBe("5");
    expect(await footprint()).toEqual(before);
  });

  it("list a row's broken rules beside a reference it names that does not exist", async () => {
    const before = await footprint();
    const res = await upload(
      t,
      steward,
      await workbookOf("Countries", [COUNTRY_HEADERS, ["QZ", "Qzland", "XQZ", -5, null, false]]),
      { layout: "countries", deleteMissing: false },
    );
    expect(res.statusCode).toBe(422);
    expect(res.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      "row 2, column 'Currency': no Currency 'XQZ'",
      `row 2, column 'Population': ${NEGATIVE}`,
    ]);
    expect(await footprint()).toEqual(before);
  });

  it("let a currency keep minor units stored before their rule, wherever the file is diffed, and refuse a change to them", async () => {
    await sql`insert into ctx_reference.currency (code, name, minor_units, active, created_by, updated_by)
      values ('XQS', 'Legacy', 7, true, 'test', 'test')`.execute(t.database.db);
    const headers = ["Code", "Name", "Minor units", "Active"];
    const before = await footprint();
    const changed = await upload(
      t,
      steward,
      await workbookOf("Currencies", [headers, ["XQS", "Legacy", 8, true]]),
      { layout: "currencies", deleteMissing: false },
    );
    expect(changed.statusCode).toBe(422);
    expect(changed.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      "row 2, column 'Minor units': Minor units are between 0 and 4",
    ]);
    // Once a row is refused, the rows after it are still judged: one refusal lists them all.
    const mixed = await upload(
      t,
      steward,
      await workbookOf("Currencies", [
        headers,
        ["XQU", "Units", "many", true],
        ["XQS", "Legacy", 7, true],
        ["XQV", "New", 9, true],
      ]),
      { layout: "currencies", deleteMissing: false },
    );
    expect(mixed.statusCode).toBe(422);
    expect(mixed.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 2, column 'Minor units': "many" is not a number`,
      "row 4, column 'Minor units': Minor units are between 0 and 4",
    ]);
    expect(await footprint()).toEqual(before);
    const renamed = await upload(
      t,
      steward,
      await workbookOf("Currencies", [headers, ["XQS", "Legacy renamed", 7, true]]),
      { layout: "currencies", deleteMissing: false },
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.body).toMatch(/: 1 row read - 0 added, 1 changed/);
    const pending = await listRecords(t, approver, {
      entityType: "currency",
      requirePending: true,
      rowConstraints: [{ attribute: "code", operator: "=", values: ["XQS"] }],
    });
    const change = pending.data[0]?.pending?.[0];
    expect(Object.keys(change?.attrValues ?? {})).toEqual(["name"]);
    const rejected = await t.post(
      "/api/reject",
      { context: "reference", entityType: "currency", entityEventIds: [change?.entityEventID] },
      approver,
    );
    expect(rejected.statusCode, rejected.body).toBe(200);
    await sql`delete from ctx_reference.currency where code = 'XQS'`.execute(t.database.db);
  });

  it("refuse a currency's minor units out of range, wherever the file is diffed, and let warnings through", async () => {
    const before = await footprint();
    const headers = ["Code", "Name", "Minor units", "Active"];
    const res = await upload(
      t,
      steward,
      await workbookOf("Currencies", [
        headers,
        ["EUR", "Euro", 2, true],
        ["XQA", "Ledger A", 7, true],
        ["XQB", "Ledger B", -1, true],
      ]),
      { layout: "currencies", deleteMissing: false },
    );
    expect(res.statusCode).toBe(422);
    expect(res.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      "row 3, column 'Minor units': Minor units are between 0 and 4",
      "row 4, column 'Minor units': Minor units are between 0 and 4",
    ]);
    expect(await footprint()).toEqual(before);
    // A code outside ISO 4217 is only a warning.
    const ok = await upload(
      t,
      steward,
      await workbookOf("Currencies", [headers, ["xq1", "Ledger lower", 4, true]]),
      { layout: "currencies", deleteMissing: false },
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.body).toMatch(/1 row read - 1 added/);
  });
});
