import type { CompareResult } from "@ledgerline/contract";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { momentBetweenSteps } from "../testing/moments.ts";
import { messageOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

let t: TestApp;
let steward: string;
let approver: string;
let outsider: string;
const m: Record<string, string> = {};

const moment = momentBetweenSteps;

async function save(record: object, action: "create" | "update"): Promise<number> {
  const res = await t.post(
    "/api/save",
    { context: "reference", entityType: "currency", record, action },
    steward,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().entityKeyID;
}

const ours = [{ attribute: "code", operator: "StartsWith" as const, values: ["XC"] }];

async function compare(body: object, cookie = steward): Promise<CompareResult> {
  const res = await t.post(
    "/api/compare",
    { context: "reference", entityType: "currency", rowConstraints: ours, ...body },
    cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as CompareResult;
}

const byCode = (result: CompareResult) =>
  Object.fromEntries(result.data.map((r) => [(r.after ?? r.before)?.code.value as string, r]));

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  await t.createUser({ username: "outsider", roles: [] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
  outsider = await t.login("outsider", TEST_USER_PASSWORD);

  m.start = await moment();
  await save({ code: "XC1", name: "One", minor_units: 2 }, "create");
  const two = await save({ code: "XC2", name: "Two", minor_units: 2 }, "create");
  await save({ code: "XC3", name: "Three", minor_units: 2 }, "create");
  m.first = await moment();
  await save({ code: "XC1", name: "One again" }, "update");
  const del = await t.post(
    "/api/delete",
    { context: "reference", entityType: "currency", entityKeyIds: [two] },
    steward,
  );
  expect(del.statusCode, del.body).toBe(200);
  await save({ code: "XC4", name: "Four", minor_units: 0 }, "create");
  m.second = await moment();
});
afterAll(() => t.close());

describe("/api/compare", () => {
  it("answers what was Added, Changed (old and new values) and Removed between two moments", async () => {
    const result = await compare({ from: m.first, to: m.second });
    expect(result.counts).toEqual({ Added: 1, Changed: 1, Removed: 1 });
    expect(result.querySize).toBe(3);
    const rows = byCode(result);
    expect(rows.XC4).toMatchObject({ kind: "Added", before: null, label: "XC4 - Four" });
    expect(rows.XC4.after?.name.value).toBe("Four");
    expect(rows.XC1).toMatchObject({ kind: "Changed", changedAttributes: ["name"] });
    expect(rows.XC1.before?.name.value).toBe("One");
    expect(rows.XC1.after?.name.value).toBe("One again");
    expect(rows.XC2).toMatchObject({ kind: "Removed", after: null, label: "XC2 - Two" });
  });

  it("runs backwards when from is the later moment, and leaves out what came and went", async () => {
    const back = byCode(await compare({ from: m.second, to: m.first }));
    expect(back.XC2.kind).toBe("Added");
    expect(back.XC4.kind).toBe("Removed");
    expect(back.XC1.before?.name.value).toBe("One again");
    const whole = await compare({ from: m.start, to: m.second });
    expect(whole.counts).toEqual({ Added: 3, Changed: 0, Removed: 0 });
    expect(Object.keys(byCode(whole)).sort()).toEqual(["XC1", "XC3", "XC4"]);
  });

  it("filters by kind and pages in key order, keeping the counts of every kind", async () => {
    const all = await compare({ from: m.start, to: m.second });
    const second = await compare({ from: m.start, to: m.second, pageSize: 1, pageNum: 2 });
    expect(second.data.map((r) => r.entityKeyID)).toEqual([all.data[1].entityKeyID]);
    const removed = await compare({ from: m.first, to: m.second, kinds: ["Removed"] });
    expect(removed.querySize).toBe(1);
    expect(removed.counts).toEqual({ Added: 1, Changed: 1, Removed: 1 });
    expect(removed.data.map((r) => r.kind)).toEqual(["Removed"]);
    const either = await compare({
      from: m.first,
      to: m.second,
      constraintGroups: [
        [{ attribute: "name", operator: "=", values: ["Two"] }],
        [{ attribute: "name", operator: "=", values: ["One"] }],
      ],
    });
    expect(Object.keys(byCode(either)).sort()).toEqual(["XC1", "XC2"]);
  });

  it("refuses a future moment and a caller who may not read the type", async () => {
    const future = new Date(Date.now() + 60_000).toISOString();
    const res = await t.post(
      "/api/compare",
      { context: "reference", entityType: "currency", from: m.start, to: future },
      steward,
    );
    expect(res.statusCode).toBe(400);
    expect(messageOf(res)).toMatch(/^to: .* is in the future$/);
    for (const to of ["6", undefined]) {
      const unclear = await t.post(
        "/api/compare",
        { context: "reference", entityType: "currency", from: m.start, to },
        steward,
      );
      expect(unclear.statusCode).toBe(400);
      expect(messageOf(unclear)).toBe(
        "to: a moment (ISO 8601, with its offset) or an upload id (a number)",
      );
    }
    const refused = await t.post(
      "/api/compare",
      { context: "reference", entityType: "currency", from: m.start, to: m.second },
      outsider,
    );
    expect(refused.statusCode).toBe(403);
  });
});

describe("comparing with an upload", () => {
  it("stands for the state right after the upload's changes were approved", async () => {
    const file = await workbookOf("Countries", [
      ["ISO2", "Name", "Currency", "Population", "Joined EU", "EU member"],
      ["QC", "Compareland", "EUR", 10, null, false],
      ["QD", "Diffland", "EUR", 20, null, false],
    ]);
    const uploaded = await upload(t, steward, file, { layout: "countries", fileName: "two.xlsx" });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const uploadId = Number(uploaded.headers["x-upload-id"]);
    const body = { context: "reference", entityType: "country", from: m.second, to: uploadId };
    const pending = await t.post("/api/compare", body, steward);
    expect(pending.statusCode).toBe(400);
    expect(messageOf(pending)).toBe(`to: upload ${uploadId} has no approved changes of Country`);

    const approve = await t.post(
      "/api/approve",
      { context: "reference", entityType: "country", uploadId },
      approver,
    );
    expect(approve.statusCode, approve.body).toBe(200);
    const uploads = await t.post(
      "/api/approved-uploads",
      { context: "reference", entityType: "country" },
      steward,
    );
    expect(uploads.statusCode, uploads.body).toBe(200);
    expect(uploads.json()[0]).toMatchObject({
      uploadId,
      fileName: "two.xlsx",
      uploadedBy: "steward",
    });

    const res = await t.post("/api/compare", body, steward);
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json() as CompareResult;
    expect(result.counts).toEqual({ Added: 2, Changed: 0, Removed: 0 });
    expect(result.to).toBe(uploads.json()[0].approvedAt);
    expect(result.data.map((r) => r.label).sort()).toEqual(["Compareland (QC)", "Diffland (QD)"]);
  });
});

describe("/api/compare-xlsx", () => {
  it("writes one row per record with old and new values side by side, coloured", async () => {
    const res = await t.post(
      "/api/compare-xlsx",
      {
        context: "reference",
        entityType: "currency",
        from: m.first,
        to: m.second,
        rowConstraints: ours,
      },
      steward,
    );
    expect(res.statusCode, res.body).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    const header = sheet.getRow(1).values as unknown[];
    expect(header.slice(1, 6)).toEqual([
      "Change",
      "Code (old)",
      "Code (new)",
      "Name (old)",
      "Name (new)",
    ]);
    const rows = new Map<string, ExcelJS.Row>();
    sheet.eachRow((row, n) => {
      if (n > 1) rows.set(String(row.getCell(3).value ?? row.getCell(2).value), row);
    });
    const changed = rows.get("XC1") as ExcelJS.Row;
    expect(changed.getCell(1).value).toBe("Changed");
    expect(changed.getCell(4).value).toBe("One");
    expect(changed.getCell(4).font?.strike).toBe(true);
    expect(changed.getCell(5).value).toBe("One again");
    expect((changed.getCell(5).fill as ExcelJS.FillPattern).fgColor?.argb).toBe("FFFFE69C");
    expect(changed.getCell(2).font?.strike).toBeFalsy();
    const added = rows.get("XC4") as ExcelJS.Row;
    expect((added.getCell(5).fill as ExcelJS.FillPattern).fgColor?.argb).toBe("FFD1E7DD");
    expect(added.getCell(7).value).toBe(0);
    expect(changed.getCell(6).value).toBe(2);
    const removed = rows.get("XC2") as ExcelJS.Row;
    expect(removed.getCell(1).value).toBe("Removed");
    expect(removed.getCell(4).font?.color?.argb).toBe("FFDC3545");
    expect(rows.size).toBe(3);
  });
});

describe("every difference at once (pageSize 0)", () => {
  it("answers up to LIST_ALL_MAX_ROWS differences and refuses more, naming the bound", async () => {
    const small = await createTestApp({ env: { LIST_ALL_MAX_ROWS: "2" } });
    try {
      await small.createUser({
        username: "steward",
        roles: [{ context: "reference", role: "steward" }],
      });
      const cookie = await small.login("steward", TEST_USER_PASSWORD);
      const start = await moment();
      const compareAll = async (pageSize: number) => {
        const to = await moment();
        return small.post(
          "/api/compare",
          {
            context: "reference",
            entityType: "currency",
            from: start,
            to,
            pageSize,
            rowConstraints: ours,
          },
          cookie,
        );
      };
      const add = (code: string) =>
        small.post(
          "/api/save",
          {
            context: "reference",
            entityType: "currency",
            action: "create",
            record: { code, name: code },
          },
          cookie,
        );
      await add("XC1");
      await add("XC2");
      const two = await compareAll(0);
      expect(two.statusCode, two.body).toBe(200);
      expect((two.json() as CompareResult).data).toHaveLength(2);

      await add("XC3");
      const three = await compareAll(0);
      expect(three.statusCode).toBe(400);
      expect(messageOf(three)).toBe(
        "This comparison has 3 differences, more than the 2 one answer may hold (LIST_ALL_MAX_ROWS): page through it, or export it",
      );
      const bigPage = await compareAll(3);
      expect(bigPage.statusCode).toBe(400);
      expect((await compareAll(2)).statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });
});
