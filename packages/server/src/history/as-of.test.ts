import ExcelJS from "exceljs";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncSchema } from "../model/sync/sync-schema.ts";
import { momentBetweenSteps } from "../testing/moments.ts";
import { listRecords, messageOf, valuesOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
let steward: string;
let approver: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
});
afterAll(() => t.close());

const moment = momentBetweenSteps;

const save = async (entityType: string, record: object, action: "create" | "update") => {
  const res = await t.post(
    "/api/save",
    { context: "reference", entityType, record, action },
    steward,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { entityKeyID: number; entityEventID: number };
};

const currencyNamed = (code: string) => [
  { attribute: "code", operator: "=" as const, values: [code] },
];

describe("a list as of a moment", () => {
  it("answers the values, discontinued state and count each moment had", async () => {
    const before = await moment();
    const { entityKeyID } = await save(
      "currency",
      { code: "XAA", name: "First name", minor_units: 2 },
      "create",
    );
    const created = await moment();
    await save("currency", { code: "XAA", name: "Second name" }, "update");
    const renamed = await moment();
    const del = await t.post(
      "/api/delete",
      { context: "reference", entityType: "currency", entityKeyIds: [entityKeyID] },
      steward,
    );
    expect(del.statusCode, del.body).toBe(200);
    const deleted = await moment();

    const at = (asOf: string, extra: object = {}) =>
      listRecords(t, steward, {
        entityType: "currency",
        rowConstraints: currencyNamed("XAA"),
        asOf,
        ...extra,
      });
    expect((await at(before)).data).toHaveLength(0);
    expect(valuesOf(await at(created), "name")).toEqual(["First name"]);
    expect(valuesOf(await at(renamed), "name")).toEqual(["Second name"]);
    expect((await at(deleted)).data).toHaveLength(0);
    const discontinued = await at(deleted, { includeDeleted: true });
    expect(valuesOf(discontinued, "name")).toEqual(["Second name"]);
    expect(discontinued.data[0].requested.isDeleted).toBe(true);

    // The unfiltered count of each moment.
    const total = async (asOf?: string) =>
      (
        await listRecords(t, steward, {
          entityType: "currency",
          pageSize: 1,
          ...(asOf ? { asOf } : {}),
        })
      ).querySize;
    expect(await total(created)).toBe((await total(before)) + 1);
    expect(await total(renamed)).toBe(await total(created));
    expect(await total(deleted)).toBe(await total(before));
    expect(await total(deleted)).toBe(await total());
  });

  it("refuses a moment in the future and a pending list as of a moment", async () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    const res = await t.post(
      "/api/entity",
      { context: "reference", entityType: "currency", asOf: future },
      steward,
    );
    expect(res.statusCode).toBe(400);
    expect(messageOf(res)).toMatch(/is in the future/);
    const pending = await t.post(
      "/api/entity",
      {
        context: "reference",
        entityType: "country",
        asOf: new Date().toISOString(),
        requirePending: true,
      },
      approver,
    );
    expect(pending.statusCode).toBe(400);
    const bad = await t.post(
      "/api/entity",
      { context: "reference", entityType: "currency", asOf: "yesterday" },
      steward,
    );
    expect(bad.statusCode).toBe(400);
  });

  it("never shows pending changes, shows an approved one from its approval on, with the labels of then", async () => {
    const currency = await save(
      "currency",
      { code: "XQA", name: "Old riyal", minor_units: 2 },
      "create",
    );
    const { entityEventID } = await save(
      "country",
      { iso2: "QZ", name: "Qatarland", currency: currency.entityKeyID, population: 5 },
      "create",
    );
    const proposed = await moment();
    const approve = await t.post(
      "/api/approve",
      { context: "reference", entityType: "country", entityEventIds: [entityEventID] },
      approver,
    );
    expect(approve.statusCode, approve.body).toBe(200);
    const approved = await moment();
    await save("currency", { code: "XQA", name: "New riyal" }, "update");

    const named = [{ attribute: "iso2", operator: "=" as const, values: ["QZ"] }];
    const at = (asOf: string) =>
      listRecords(t, steward, { entityType: "country", rowConstraints: named, asOf });
    expect((await at(proposed)).data).toHaveLength(0);
    const then = await at(approved);
    expect(valuesOf(then, "name")).toEqual(["Qatarland"]);
    expect(then.data[0].requested.attrValues.currency.label).toBe("XQA - Old riyal");
    expect(then.data[0].requested.attrValues.display.value).toBe("Qatarland (QZ)");
    const now = await listRecords(t, steward, { entityType: "country", rowConstraints: named });
    expect(now.data[0].requested.attrValues.currency.label).toBe("XQA - New riyal");
  });

  it("exports what a list as of a moment shows", async () => {
    await save("currency", { code: "XEX", name: "Exported", minor_units: 1 }, "create");
    const then = await moment();
    await save("currency", { code: "XEX", name: "Renamed later" }, "update");
    const res = await t.post(
      "/api/query-xlsx",
      {
        context: "reference",
        entityType: "currency",
        rowConstraints: currencyNamed("XEX"),
        asOf: then,
      },
      steward,
    );
    expect(res.statusCode, res.body).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, "Code", "Name", "Minor units", "Active"]);
    expect(sheet.rowCount).toBe(2);
    expect(sheet.getRow(2).getCell(2).value).toBe("Exported");
  });
});

describe("a type whose records predate its history table", () => {
  it("gets its past versions rebuilt from the approved events", async () => {
    await save("currency", { code: "XBF", name: "Before", minor_units: 1 }, "create");
    const first = await moment();
    await save("currency", { code: "XBF", name: "After" }, "update");
    const second = await moment();
    const answers = async () =>
      Promise.all(
        [first, second].map(async (asOf) => {
          const list = await listRecords(t, steward, { entityType: "currency", asOf, pageSize: 0 });
          return list.data.map((r) => [
            r.entityKeyID,
            r.requested.attrValues.name.value,
            r.requested.attrValues.minor_units.value,
          ]);
        }),
      );
    const kept = await answers();
    expect(kept[0]).toContainEqual([expect.any(Number), "Before", 1]);

    const db = t.database.db;
    await sql`drop table ctx_reference.currency__history`.execute(db);
    await sql`drop trigger keep_versions on ctx_reference.currency`.execute(db);
    const actions = await syncSchema(db as unknown as Kysely<unknown>, t.prepared.model, {
      allowDestructive: false,
    });
    expect(actions.map((a) => a.description)).toContain(
      "create history table ctx_reference.currency__history",
    );
    expect(await answers()).toEqual(kept);
  });
});

describe("a record's history", () => {
  it("gives each approved change the moment that shows the type as of that change", async () => {
    const { entityKeyID } = await save(
      "currency",
      { code: "XHI", name: "Was", minor_units: 1 },
      "create",
    );
    await save("currency", { code: "XHI", name: "Is" }, "update");
    const res = await t.post(
      "/api/history",
      { context: "reference", entityType: "currency", entityKeyID },
      steward,
    );
    const [update, create] = res.json().events as { decidedAt: string }[];
    expect(update.decidedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
    const at = async (asOf: string) =>
      valuesOf(
        await listRecords(t, steward, {
          entityType: "currency",
          rowConstraints: currencyNamed("XHI"),
          asOf,
        }),
        "name",
      );
    expect(await at(create.decidedAt)).toEqual(["Was"]);
    expect(await at(update.decidedAt)).toEqual(["Is"]);
  });
});
