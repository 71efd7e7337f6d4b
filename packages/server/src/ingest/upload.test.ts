import fs from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import ExcelJS from "exceljs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords } from "../testing/records-client.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  REPO_ROOT,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { minimalWorkbookParts, upload, workbookOf, zipOf } from "../testing/xlsx-files.ts";

let t: TestApp;
let steward: string;
let admin: string;
let viewer: string;
/** A second steward, for the later uploads: uploads are limited to 20 a minute per user. */
let proposer: string;
const example = (name: string) => fs.readFile(path.join(REPO_ROOT, "examples", name));
const COUNTRY_HEADERS = ["ISO2", "Name", "Currency", "Population", "Joined EU", "EU member"];

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "viewer", roles: [{ context: "reference", role: "viewer" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  viewer = await t.login("viewer", TEST_USER_PASSWORD);
  await t.createUser({ username: "proposer", roles: [{ context: "reference", role: "steward" }] });
  proposer = await t.login("proposer", TEST_USER_PASSWORD);
  admin = await t.login("admin", ADMIN_PASSWORD);
});
afterAll(() => t.close());

async function eventCount(): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from app.events`.execute(
    t.database.db,
  );
  return rows[0].n;
}

async function pendingCountries() {
  return listRecords(t, viewer, {
    entityType: "country",
    requirePending: true,
    includeDeleted: true,
    pageSize: 0,
    rowOrders: [{ attribute: "iso2", asc: true }],
  });
}

/** Approves an upload's pending changes as the administrator: the second pair of eyes. */
async function approveUpload(entityType: string, res: { headers: Record<string, unknown> }) {
  const uploadId = Number(res.headers["x-upload-id"]);
  const approved = await t.post(
    "/api/approve",
    { context: "reference", entityType, uploadId },
    admin,
  );
  expect(approved.statusCode, approved.body).toBe(200);
}

describe("POST /api/filelayouts", () => {
  it("lists the layouts of types the user may create or edit in, with their defaults", async () => {
    const res = await t.post("/api/filelayouts", { context: "reference" }, steward);
    const notApprover = {
      mayApproveEverything: false,
      approveEverythingRefusal: "Only approvers may use 'Approve everything'",
    };
    expect(res.json()).toEqual([
      {
        name: "countries",
        uiName: "Countries",
        entityType: "country",
        deleteMissing: false,
        approveEverything: false,
        showDeleteMissing: true,
        showApproveEverything: true,
        ...notApprover,
      },
      {
        name: "regions",
        uiName: "Regions",
        entityType: "region",
        deleteMissing: false,
        approveEverything: false,
        showDeleteMissing: true,
        showApproveEverything: true,
        ...notApprover,
      },
      {
        name: "currencies",
        uiName: "Currencies",
        entityType: "currency",
        deleteMissing: true,
        approveEverything: false,
        showDeleteMissing: true,
        showApproveEverything: true,
        ...notApprover,
      },
    ]);
    expect((await t.post("/api/filelayouts", { context: "reference" }, viewer)).json()).toEqual([]);
  });

  it("tells an approver 'Approve everything' is refused where the type does not allow self-approval", async () => {
    const res = await t.post("/api/filelayouts", { context: "reference" }, admin);
    const flags = (res.json() as Record<string, unknown>[]).map((l) => ({
      name: l.name,
      may: l.mayApproveEverything,
      why: l.approveEverythingRefusal,
    }));
    expect(flags).toEqual([
      {
        name: "countries",
        may: false,
        why: "'Approve everything' would approve your own changes, and Country does not allow self-approval",
      },
      {
        name: "regions",
        may: false,
        why: "'Approve everything' would approve your own changes, and Region does not allow self-approval",
      },
      { name: "currencies", may: true, why: undefined },
    ]);
  });
});

describe("POST /api/upload", () => {
  it("ingests examples/countries.xlsx: counts in the text, changes pending with only the changed values", async () => {
    const res = await upload(t, steward, await example("countries.xlsx"), {
      layout: "countries",
      fileName: "countries.xlsx",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^text\/plain/);
    expect(res.body).toMatch(
      /^countries\.xlsx: 249 rows read - 0 added, 10 changed, 0 missing, 239 unchanged; 10 changes pending approval$/,
    );
    const pending = await pendingCountries();
    expect(pending.data.map((r) => r.keyAttrValues.iso2)).toEqual([
      "AT",
      "BE",
      "DE",
      "ES",
      "FR",
      "IT",
      "LU",
      "NL",
      "PL",
      "SE",
    ]);
    const de = pending.data.find((r) => r.keyAttrValues.iso2 === "DE");
    expect(de?.pending?.[0]).toMatchObject({
      action: "Change",
      createdBy: "steward",
      attrValues: { population: { value: 84_358_845 } },
    });
    expect(de?.requested.attrValues.population.value).toBeNull();
    const uploadId = Number(res.headers["x-upload-id"]);
    const record = await t.database.db
      .selectFrom("app.uploads")
      .selectAll()
      .where("upload_id", "=", uploadId)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      file_name: "countries.xlsx",
      created_by: "steward",
      outcome: "succeeded",
      layout: "countries",
    });
    expect(record.counts).toMatchObject({ rows: 249, changed: 10, pending: 10 });
  });

  it("supersedes the pending changes of a record when the file is uploaded again", async () => {
    const before = (await pendingCountries()).data.map((r) => r.pending?.[0].entityEventID);
    const res = await upload(t, steward, await example("countries.xlsx"), { layout: "countries" });
    expect(res.statusCode).toBe(200);
    const after = (await pendingCountries()).data.map((r) => r.pending?.[0].entityEventID);
    expect(after).toHaveLength(10);
    expect(after.some((id) => before.includes(id))).toBe(false);
    const { rows } = await sql<{
      n: number;
    }>`select count(*)::int as n from app.events where status = 'superseded' and event_id = any(${before}::bigint[])`.execute(
      t.database.db,
    );
    expect(rows[0].n).toBe(10);
  });

  it("refuses 'Approve everything' to a user without the approve right, and applies at once for an approver", async () => {
    const denied = await upload(t, steward, await example("countries.xlsx"), {
      layout: "countries",
      approveEverything: true,
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.body).toBe("Only approvers may use 'Approve everything'");
    // Currencies allow self-approval: an approver's upload of them is applied at once.
    const events = await eventCount();
    const res = await upload(
      t,
      admin,
      await workbookOf("Currencies", [
        ["Code", "Name", "Minor units", "Active"],
        ["XAE", "Approved at once", 2, true],
      ]),
      { layout: "currencies", deleteMissing: false, approveEverything: true },
    );
    expect(res.body).toMatch(/1 added, 0 changed.*; 1 change applied$/);
    expect(await eventCount()).toBe(events + 1);
    const { rows } = await sql<{ status: string; created_by: string; decided_by: string }>`
      select status, created_by, decided_by from app.events
      where source = ${`upload:${res.headers["x-upload-id"]}`}`.execute(t.database.db);
    expect(rows).toEqual([{ status: "approved", created_by: "admin", decided_by: "admin" }]);
  });

  it("refuses 'Approve everything' where the type does not allow self-approval, dry runs too, and changes nothing", async () => {
    const events = await eventCount();
    const pendingBefore = (await pendingCountries()).data.map((r) => r.pending?.[0].entityEventID);
    const rule =
      "'Approve everything' would approve your own changes, and Country does not allow self-approval";
    for (const dryRun of [false, true]) {
      const refused = await upload(t, admin, await example("countries.xlsx"), {
        layout: "countries",
        approveEverything: true,
        dryRun,
      });
      expect([refused.statusCode, refused.body]).toEqual([403, rule]);
    }
    expect(await eventCount()).toBe(events);
    expect((await pendingCountries()).data.map((r) => r.pending?.[0].entityEventID)).toEqual(
      pendingBefore,
    );
    // The steward's changes take a second person: the administrator approves them.
    const ids = pendingBefore.filter((id): id is number => id !== undefined);
    const approved = await t.post(
      "/api/approve",
      { context: "reference", entityType: "country", entityEventIds: ids },
      admin,
    );
    expect(approved.statusCode, approved.body).toBe(200);
    const de = (
      await listRecords(t, viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["DE"] }],
      })
    ).data[0];
    expect(de.requested.attrValues.population.value).toBe(84_358_845);
    expect((await pendingCountries()).data).toEqual([]);
  });

  it("adds, changes and marks missing with 'Delete missing'; references by code or label", async () => {
    const rows: unknown[][] = [
      ["Code", "Name", "Minor units", "Active"],
      ["EUR", "Euro", 2, "yes"],
      ["USD", "US Dollar (changed)", 2, "TRUE"],
      ["XNW", "New Money", "", "no"],
    ];
    const { rows: codes } = await sql<{
      code: string;
    }>`select code from ctx_reference.currency where code not in ('EUR', 'USD')`.execute(
      t.database.db,
    );
    for (const c of codes.slice(0, codes.length - 3)) rows.push([c.code, "", 2, true]);
    // Keep names as stored so only the intended rows change.
    const { rows: names } = await sql<{
      code: string;
      name: string;
      minor_units: number | null;
      active: boolean | null;
    }>`select code, name, minor_units, active from ctx_reference.currency`.execute(t.database.db);
    const stored = new Map(names.map((n) => [n.code, n]));
    for (const r of rows.slice(4)) {
      const s = stored.get(r[0] as string);
      r[1] = s?.name ?? "";
      r[2] = s?.minor_units ?? "";
      r[3] = s?.active ?? "";
    }
    rows[1] = ["EUR", stored.get("EUR")?.name ?? "Euro", 2, true];
    const file = await workbookOf("Currencies", rows);
    const res = await upload(t, steward, file, {
      layout: "currencies",
      fileName: "currencies.xlsx",
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toBe(
      `currencies.xlsx: ${rows.length - 1} rows read - 1 added, 1 changed, 3 missing, ${rows.length - 3} unchanged; 5 changes pending approval`,
    );
    const pending = await listRecords(t, viewer, {
      entityType: "currency",
      requirePending: true,
      includeDeleted: true,
      pageSize: 0,
    });
    const actions = pending.data.map((r) => r.pending?.[0].action).sort();
    expect(actions).toEqual(["Add", "Change", "Missing", "Missing", "Missing"]);
    // A proposed currency is not yet visible, but can be approved.
    const add = pending.data.find((r) => r.pending?.[0].action === "Add");
    expect(add?.keyAttrValues.code).toBe("XNW");

    const countryRows = [
      COUNTRY_HEADERS,
      ["DE", "Germany", "eur - euro", 84_358_845, new Date("1958-01-01"), true],
      ["CH", "Switzerland", "chf", null, null, false],
    ];
    const byLabel = await upload(t, steward, await workbookOf("Countries", countryRows), {
      layout: "countries",
    });
    expect(byLabel.statusCode, byLabel.body).toBe(200);
    expect(byLabel.body).toMatch(/0 added, 0 changed, 0 missing, 2 unchanged; nothing to change$/);
  });

  it("guards against marking more than half of the records missing unless confirmed", async () => {
    const file = await workbookOf("Currencies", [
      ["Code", "Name", "Minor units", "Active"],
      ["EUR", "Euro", 2, true],
    ]);
    const events = await eventCount();
    const res = await upload(t, admin, file, { layout: "currencies" });
    expect(res.statusCode).toBe(409);
    expect(res.body).toMatch(
      /^This upload would mark \d+ of \d+ Currency records missing \(more than half\)/,
    );
    expect(await eventCount()).toBe(events);
    const confirmed = await upload(t, admin, file, {
      layout: "currencies",
      confirmMassMissing: true,
      dryRun: true,
    });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.body).toMatch(/^Check only, nothing was changed\. upload\.xlsx: 1 row read/);
    expect(await eventCount()).toBe(events);
  });

  it("refuses an applied upload leaving out a record others still refer to, and changes nothing", async () => {
    const { rows: stored } = await sql<{
      code: string;
      name: string;
      minor_units: number | null;
      active: boolean | null;
    }>`select code, name, minor_units, active from ctx_reference.currency
      where not is_deleted and not is_pending_new order by code`.execute(t.database.db);
    // Every currency as stored, but the US dollar, which countries refer to.
    const rows: unknown[][] = [
      ["Code", "Name", "Minor units", "Active"],
      ...stored
        .filter((c) => c.code !== "USD")
        .map((c) => [c.code, c.name, c.minor_units ?? "", c.active ?? ""]),
    ];
    const events = await eventCount();
    const file = await workbookOf("Currencies", rows);
    const refusal =
      "The file was refused; nothing was changed. 1 Currency record it leaves out is still referred to by Country records (Currency): a record others refer to cannot be deleted.";
    const res = await upload(t, admin, file, { layout: "currencies", approveEverything: true });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.body).toBe(refusal);
    // 'Check only' tells the same.
    const checked = await upload(t, admin, file, {
      layout: "currencies",
      approveEverything: true,
      dryRun: true,
    });
    expect(checked.statusCode, checked.body).toBe(409);
    expect(checked.body).toBe(refusal);
    expect(await eventCount()).toBe(events);
    const usd = await listRecords(t, viewer, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: ["USD"] }],
    });
    expect(usd.data).toHaveLength(1);
  });

  it("brings a discontinued record back as a Change when it reappears", async () => {
    const gb = (
      await listRecords(t, viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["GB"] }],
      })
    ).data[0];
    await sql`update ctx_reference.country set is_deleted = true where iso2 = 'GB'`.execute(
      t.database.db,
    );
    const file = await workbookOf("Countries", [
      COUNTRY_HEADERS,
      ["GB", "United Kingdom", "GBP", null, null, false],
    ]);
    const res = await upload(t, proposer, file, { layout: "countries" });
    expect(res.body).toMatch(/0 added, 1 changed/);
    await approveUpload("country", res);
    const back = (
      await listRecords(t, viewer, { entityType: "country", entityKeyID: gb.entityKeyID })
    ).data[0];
    expect(back.requested.isDeleted).toBe(false);
  });
  it("supersedes the pending changes a newer file contradicts, and keeps those to columns it lacks", async () => {
    const { rows: approved } = await sql<{ name: string; code: string; population: number }>`
      select c.name, cur.code, c.population from ctx_reference.country c
      join ctx_reference.currency cur on cur.entity_key_id = c.currency
      where c.iso2 = 'DE'`.execute(t.database.db);
    const deAsApproved = ["DE", approved[0].name, approved[0].code];
    const proposed = await upload(
      t,
      proposer,
      await workbookOf("Countries", [
        ["ISO2", "Name", "Currency", "Population"],
        [...deAsApproved, Number(approved[0].population) + 1],
      ]),
      { layout: "countries" },
    );
    expect(proposed.body).toMatch(/1 changed, 0 missing, 0 unchanged; 1 change pending approval$/);
    const countries = await pendingCountries();
    const de = countries.data.find((r) => r.keyAttrValues.iso2 === "DE");
    if (!de?.pending) throw new Error("DE has no pending change");
    expect(Object.keys(de.pending[0].attrValues)).toEqual(["population"]);

    // A file without the Population column says nothing of the pending population.
    const withoutPopulation = await upload(
      t,
      proposer,
      await workbookOf("Countries", [["ISO2", "Name", "Currency"], deAsApproved]),
      { layout: "countries" },
    );
    expect(withoutPopulation.body).toMatch(/1 unchanged; nothing to change$/);
    const stillPending = await pendingCountries();
    expect(stillPending.data.map((r) => r.pending?.[0].entityEventID)).toEqual(
      countries.data.map((r) => r.pending?.[0].entityEventID),
    );

    // One that carries it at its approved (empty) value contradicts it.
    const withPopulation = await upload(
      t,
      proposer,
      await workbookOf("Countries", [
        ["ISO2", "Name", "Currency", "Population"],
        [...deAsApproved, Number(approved[0].population)],
      ]),
      { layout: "countries" },
    );
    expect(withPopulation.body).toBe(
      "upload.xlsx: 1 row read - 0 added, 0 changed, 0 missing, 1 unchanged; nothing to change; 1 earlier pending change it contradicts superseded",
    );
    const after = await pendingCountries();
    expect(after.data.map((r) => r.keyAttrValues.iso2)).not.toContain("DE");
    expect(after.data).toHaveLength(countries.data.length - 1);
    const { rows: event } = await sql<{ status: string; decided_by: string }>`
      select status, decided_by from app.events where event_id = ${de.pending[0].entityEventID}`.execute(
      t.database.db,
    );
    expect(event[0]).toEqual({ status: "superseded", decided_by: "proposer" });
  });

  it("supersedes a pending Missing when a newer file lists the record again", async () => {
    const { rows: all } = await sql<{
      code: string;
      name: string;
      minor_units: number | null;
      active: boolean | null;
      waiting: boolean;
    }>`select code, name, minor_units, active, exists (select 1 from app.events e
         where e.entity_type = 'currency' and e.entity_key_id = cur.entity_key_id
           and e.status = 'pending') as waiting
       from ctx_reference.currency cur
       where not is_deleted and not is_pending_new order by waiting, code`.execute(t.database.db);
    // The one left out has no change waiting; those that have are kept as they are.
    const [dropped, ...kept] = all;
    expect(dropped.waiting).toBe(false);
    const rowsOf = (list: typeof all) => [
      ["Code", "Name", "Minor units", "Active"],
      ...list.map((c) => [c.code, c.name, c.minor_units, c.active]),
    ];
    const pendingBefore = async () => {
      const { rows } = await sql<{ event_id: number }>`
        select event_id from app.events where context = 'reference' and entity_type = 'currency'
          and status = 'pending'`.execute(t.database.db);
      return rows.map((r) => r.event_id);
    };
    // The earlier tests left changes pending on currencies this file keeps as they are, and
    // proposed currencies it does not hold (withdrawn by it).
    const contradicted = (await pendingBefore()).length;
    const without = await upload(t, proposer, await workbookOf("Currencies", rowsOf(kept)), {
      layout: "currencies",
    });
    expect(without.body).toMatch(/0 changed, 1 missing, .*; 1 change pending approval/);
    if (contradicted > 0) expect(without.body).toContain(`; ${contradicted} earlier pending`);
    const missing = await pendingBefore();
    expect(missing).toHaveLength(1);

    const again = await upload(t, proposer, await workbookOf("Currencies", rowsOf(all)), {
      layout: "currencies",
    });
    expect(again.body).toMatch(
      /0 missing, \d+ unchanged; nothing to change; 1 earlier pending change it contradicts superseded$/,
    );
    expect(await pendingBefore()).toEqual([]);
    const record = await listRecords(t, viewer, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: [dropped.code] }],
    });
    expect(record.data).toHaveLength(1);
  });

  it("lets a web edit amend a pending upload change where web edits apply at once, and a deletion supersede it", async () => {
    const { rows } = await sql<{ code: string; name: string; entity_key_id: number }>`
      select code, name, entity_key_id from ctx_reference.currency cur
      where not is_deleted and not is_pending_new and not exists (
        select 1 from ctx_reference.country c where c.currency = cur.entity_key_id)
      order by code limit 1`.execute(t.database.db);
    const [free] = rows;
    const proposed = await upload(
      t,
      proposer,
      await workbookOf("Currencies", [
        ["Code", "Name"],
        [free.code, `${free.name} (renamed)`],
      ]),
      { layout: "currencies", deleteMissing: false },
    );
    expect(proposed.body).toMatch(/1 changed.*; 1 change pending approval$/);
    const pendingOf = async () =>
      (
        await sql<{ event_id: number; action: string; new_values: unknown; status: string }>`
          select event_id, action, new_values, status from app.events
          where entity_type = 'currency' and entity_key_id = ${free.entity_key_id}
          order by event_id desc limit 1`.execute(t.database.db)
      ).rows[0];
    const change = await pendingOf();

    const edit = await t.post(
      "/api/save",
      {
        context: "reference",
        entityType: "currency",
        record: { code: free.code, minor_units: 1 },
        action: "update",
      },
      admin,
    );
    expect(edit.json()).toEqual({
      entityKeyID: free.entity_key_id,
      entityEventID: change.event_id,
      pending: true,
      Msg: `Pending change to Currency '${free.code}' amended`,
    });
    expect(await pendingOf()).toEqual({
      event_id: change.event_id,
      action: "Amend",
      new_values: { name: `${free.name} (renamed)`, minor_units: 1 },
      status: "pending",
    });

    const deleted = await t.post(
      "/api/delete",
      { context: "reference", entityType: "currency", entityKeyIds: [free.entity_key_id] },
      proposer,
    );
    expect(deleted.json()).toEqual({ Msg: "1 record deleted" });
    const { rows: events } = await sql<{ action: string; status: string }>`
      select action, status from app.events where entity_type = 'currency'
        and entity_key_id = ${free.entity_key_id} and event_id >= ${change.event_id} order by event_id`.execute(
      t.database.db,
    );
    expect(events).toEqual([
      { action: "Amend", status: "superseded" },
      { action: "Delete", status: "approved" },
    ]);
  });
});

describe("refused uploads change nothing", () => {
  // Each user may upload 20 times a minute: some refusals are sent by a second steward.
  async function refused(file: Buffer, layout = "countries", cookie = steward) {
    const events = await eventCount();
    const res = await upload(t, cookie, file, { layout });
    expect(await eventCount()).toBe(events);
    return res;
  }

  it("lists row-level problems of examples/countries-invalid.xlsx", async () => {
    const res = await refused(await example("countries-invalid.xlsx"));
    expect(res.statusCode).toBe(422);
    expect(res.body.split("\n")).toEqual([
      "The file was refused; nothing was changed. Problems:",
      `row 2, column 'Population': "many" is not a number`,
      "row 3, column 'Currency': no Currency 'XYZ'",
      `row 4, column 'Name': a value is required`,
      `row 5, column 'Joined EU': "1st of January 1986" is not a date (YYYY-MM-DD or an Excel date)`,
      `row 6, column 'EU member': "perhaps" is not true or false`,
    ]);
  });

  it("refuses a date-formatted number that is no date Excel shows, by row and column", async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet("Countries");
    ws.addRow(COUNTRY_HEADERS);
    ws.addRow(["DE", "Germany", "EUR", 83_000_000, 99_999_999]);
    ws.getCell("E2").numFmt = "yyyy-mm-dd";
    const res = await refused(Buffer.from(await wb.xlsx.writeBuffer()));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(
      "row 2, column 'Joined EU': 99999999 is not a date (YYYY-MM-DD or an Excel date)",
    );
  });

  // A thread per file (see parse-in-worker.ts): a leaked one is only visible as the process's threads.
  it.skipIf(process.platform !== "linux")(
    "stops the parser thread of every refused file",
    async () => {
      const threads = async () =>
        Number(/^Threads:\s+(\d+)/m.exec(await fs.readFile("/proc/self/status", "utf8"))?.[1]);
      const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      // Threads end (and the next spare parser starts) a moment after the answer.
      const settled = async (most: number) => {
        for (let i = 0; i < 40 && (await threads()) > most; i++) await pause(50);
        return threads();
      };
      const noName = await workbookOf("Countries", [
        ["ISO2", "Currency"],
        ["DE", "EUR"],
      ]);
      await refused(noName);
      await pause(500);
      const before = await threads();
      for (let i = 0; i < 3; i++) expect((await refused(noName)).statusCode).toBe(422);
      expect(await settled(before)).toBeLessThanOrEqual(before);
    },
  );

  it("refuses duplicate keys, naming the rows", async () => {
    const file = await workbookOf("Countries", [
      COUNTRY_HEADERS,
      ["DE", "Germany", "EUR"],
      ["FR", "France", "EUR"],
      ["DE", "Germany again", "EUR"],
    ]);
    const res = await refused(file);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(
      "row 4, column 'ISO2': the key 'DE' appears more than once (rows 2, 4)",
    );
  });

  it("names missing required columns, a column given twice, a missing sheet and an empty sheet", async () => {
    const noName = await refused(
      await workbookOf("Countries", [
        ["ISO2", "Currency"],
        ["DE", "EUR"],
      ]),
    );
    expect(noName.statusCode).toBe(422);
    expect(noName.body).toMatch(/lacks the required column 'Name' in row 1/);
    const twice = await refused(
      await workbookOf("Countries", [
        ["ISO2", "Name", " name ", "Currency"],
        ["XM", "Twice A", "Twice B", "EUR"],
      ]),
      "countries",
      proposer,
    );
    expect([twice.statusCode, twice.body]).toEqual([
      422,
      "The file was refused; nothing was changed. Sheet 'Countries' has the column 'Name' more than once in row 1",
    ]);
    const wrongSheet = await refused(await workbookOf("Sheet1", [COUNTRY_HEADERS]));
    expect(wrongSheet.statusCode).toBe(400);
    expect(wrongSheet.body).toBe("The workbook has no sheet 'Countries' (it has: 'Sheet1')");
    const empty = await refused(await workbookOf("Countries", []));
    expect(empty.body).toMatch(/Sheet 'Countries' is empty/);
  });

  it("refuses files that are not workbooks, macro workbooks, DOCTYPEs and zip bombs with a clear 400", async () => {
    const text = await refused(Buffer.from("ISO2,Name\nDE,Germany\n"));
    expect([text.statusCode, text.body]).toEqual([400, "The file is not an .xlsx workbook"]);
    const zip = await refused(await zipOf({ "readme.txt": "hello" }));
    expect([zip.statusCode, zip.body]).toEqual([
      400,
      "The file is a zip archive but not an Excel workbook (.xlsx)",
    ]);
    const macro = await refused(
      await zipOf({ ...minimalWorkbookParts("<worksheet/>"), "xl/vbaProject.bin": "x" }),
    );
    expect(macro.body).toBe("Macro-enabled workbooks (.xlsm) are refused; save the file as .xlsx");
    const doctype = await refused(
      await zipOf(
        minimalWorkbookParts(
          '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><worksheet><sheetData/></worksheet>',
        ),
      ),
    );
    expect(doctype.body).toMatch(/declares a DOCTYPE, which is refused/);
    const bomb = await refused(
      await zipOf(
        minimalWorkbookParts(
          `<worksheet><sheetData>${" ".repeat(300_000_000)}</sheetData></worksheet>`,
        ),
      ),
    );
    expect(bomb.statusCode).toBe(400);
    expect(bomb.body).toMatch(
      /^The workbook part 'xl\/worksheets\/sheet1\.xml' expands to \d+ times its packed size, more than the 200 times allowed; it was refused as a possible zip bomb$/,
    );
  });

  it("reads hostile cell texts as plain values", async () => {
    const file = await workbookOf("Countries", [
      ["__proto__", ...COUNTRY_HEADERS],
      ["x", "DE", "=cmd|' /C calc'!A0", "EUR", null, null, true],
    ]);
    const res = await upload(t, proposer, file, { layout: "countries" });
    expect(res.statusCode, res.body).toBe(200);
    await approveUpload("country", res);
    const de = (
      await listRecords(t, viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: ["DE"] }],
      })
    ).data[0];
    expect(de.requested.attrValues.name.value).toBe("=cmd|' /C calc'!A0");
  });

  it("refuses a file over the size limit before reading it, naming the limit, and keeps nothing", async () => {
    const small = await createTestApp({ env: { UPLOAD_MAX_MB: "0.5" } });
    try {
      const cookie = await small.login("admin", ADMIN_PASSWORD);
      const leftovers = () => leftoversOf(small);
      const before = await leftovers();
      // Says it is 100 MB, sends the headers and one kilobyte: the answer comes before the rest.
      await small.app.listen({ host: "127.0.0.1", port: 0 });
      const { port } = small.app.server.address() as AddressInfo;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request({
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/upload",
          headers: {
            cookie,
            origin: `http://127.0.0.1:${port}`,
            "content-type": "multipart/form-data; boundary=x",
            "content-length": String(100 * 1024 * 1024),
          },
        });
        req.on("response", (res) => {
          let body = "";
          res.on("data", (chunk) => {
            body += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.write(Buffer.alloc(1024, 120));
      });
      expect(answer.status).toBe(413);
      expect(answer.body).toBe(
        "The file is larger than 0.5 MB, the most one upload may be (UPLOAD_MAX_MB)",
      );
      expect(await leftovers()).toEqual(before);

      // A file just over the limit in an honest request is refused the same way.
      const res = await upload(small, cookie, Buffer.alloc(1024 * 1024, 1), {
        layout: "countries",
      });
      expect(res.statusCode).toBe(413);
      expect(res.body).toBe(
        "The file is larger than 0.5 MB, the most one upload may be (UPLOAD_MAX_MB)",
      );
      expect(await leftovers()).toEqual(before);
    } finally {
      await small.close();
    }
  });

  it("refuses a file over the row limit, naming the limit, and keeps nothing", async () => {
    const few = await createTestApp({ env: { UPLOAD_MAX_ROWS: "2" } });
    try {
      const cookie = await few.login("admin", ADMIN_PASSWORD);
      const before = await leftoversOf(few);
      const file = await workbookOf("Countries", [
        COUNTRY_HEADERS,
        ["QA", "Rowland A", "EUR", 1, null, false],
        ["QB", "Rowland B", "EUR", 2, null, false],
        ["QC", "Rowland C", "EUR", 3, null, false],
      ]);
      const res = await upload(few, cookie, file, { layout: "countries" });
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain(
        "The file has more than 2 rows, the most one upload may carry (UPLOAD_MAX_ROWS)",
      );
      expect(await leftoversOf(few)).toEqual(before);
    } finally {
      await few.close();
    }
  });
});

/** What a refused upload must not leave: stored files, events, stage tables, countries. */
async function leftoversOf(app: TestApp) {
  const db = app.database.db;
  const files = await fs.readdir(path.join(app.config.dataDir, "uploads")).catch(() => []);
  const { rows } = await sql<{ events: number; stages: number; countries: number }>`
    select (select count(*)::int from app.events) as events,
      (select count(*)::int from pg_tables where schemaname = 'app' and tablename like 'ingest_stage_%') as stages,
      (select count(*)::int from ctx_reference.country) as countries`.execute(db);
  return { files, ...rows[0] };
}
