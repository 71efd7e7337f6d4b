import { buffer } from "node:stream/consumers";
import ExcelJS from "exceljs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { columnName, dateSerial, reportFileName, writeXlsx } from "./xlsx-writer.ts";

let t: TestApp;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "viewer", roles: [{ context: "reference", role: "viewer" }] });
  viewer = await t.login("viewer", TEST_USER_PASSWORD);
  await sql`update ctx_reference.country set population = 83000000 where iso2 = 'DE'`.execute(
    t.database.db,
  );
  await sql`update ctx_reference.currency set name = '=HYPERLINK("http://x")' where code = 'XXX'`.execute(
    t.database.db,
  );
});
afterAll(() => t.close());

async function workbookOf(body: Buffer): Promise<ExcelJS.Worksheet> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(body as unknown as ArrayBuffer);
  return wb.worksheets[0];
}

describe("POST /api/query-xlsx", () => {
  it("streams every matching row with uiName headers, typed cells and reference labels", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/query-xlsx",
      headers: {
        cookie: viewer,
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      payload: JSON.stringify({
        context: "reference",
        entityType: "country",
        pageSize: 0,
        pageNum: 0,
        rowOrders: [{ attribute: "iso2", asc: true }],
        rowConstraints: [{ attribute: "eu_member", operator: "=", values: [true] }],
      }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe(
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    expect(res.headers["content-disposition"]).toMatch(
      /^attachment; filename="Report_\d{4}-\d{2}-\d{2}_\d{1,2}-\d{2}-\d{2}\.xlsx"$/,
    );
    const sheet = await workbookOf(res.rawPayload);
    expect(sheet.rowCount).toBe(28);
    const headers = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(headers).toEqual([
      "ISO code",
      "Name",
      "Currency",
      "Region",
      "Population",
      "Joined EU",
      "EU member",
      "Verified on",
      "Display name",
      "Population band",
    ]);
    const at = (row: number) => (sheet.getRow(row).values as unknown[]).slice(1);
    const de = at(2 + ["AT", "BE", "BG", "CY", "CZ"].length);
    expect(de[0]).toBe("DE");
    expect(de[2]).toBe("EUR - Euro");
    expect(de[3]).toBe("Western Europe");
    expect(de[4]).toBe(83000000);
    expect(de[5]).toBeInstanceOf(Date);
    expect((de[5] as Date).toISOString().slice(0, 10)).toBe("1958-01-01");
    expect(de[6]).toBe(true);
    expect(de[9]).toBe("large");
  });

  it("writes text that looks like a formula as text, never as a formula", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/query-xlsx",
      headers: {
        cookie: viewer,
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      payload: JSON.stringify({
        context: "reference",
        entityType: "currency",
        rowConstraints: [{ attribute: "code", operator: "=", values: ["XXX"] }],
        requestedAttributes: ["code", "name"],
      }),
    });
    const sheet = await workbookOf(res.rawPayload);
    const cell = sheet.getRow(2).getCell(2);
    expect(cell.type).toBe(ExcelJS.ValueType.String);
    expect(cell.value).toBe('=HYPERLINK("http://x")');
  });

  it("reads a long export in chunks, by key and sorted, without losing or repeating a row", async () => {
    const db = t.database.db;
    const { rows: before } = await sql<{ n: number }>`
      select count(*)::int as n from ctx_reference.currency where not is_deleted and not is_pending_new`.execute(
      db,
    );
    await sql`
      insert into ctx_reference.currency (code, name, created_by, updated_by)
      select 'Z' || lpad(i::text, 5, '0'), 'Bulk ' || i, 'test', 'test'
      from generate_series(1, 11000) as i`.execute(db);
    const total = before[0].n + 11000;
    try {
      for (const rowOrders of [undefined, [{ attribute: "code", asc: false }]]) {
        const res = await t.app.inject({
          method: "POST",
          url: "/api/query-xlsx",
          headers: {
            cookie: viewer,
            "content-type": "application/json",
            "sec-fetch-site": "same-origin",
          },
          payload: JSON.stringify({
            context: "reference",
            entityType: "currency",
            requestedAttributes: ["code"],
            ...(rowOrders ? { rowOrders } : {}),
          }),
        });
        expect(res.statusCode).toBe(200);
        const sheet = await workbookOf(res.rawPayload);
        expect(sheet.rowCount).toBe(total + 1);
        const codes: string[] = [];
        sheet.eachRow((row, n) => {
          if (n > 1) codes.push(String(row.getCell(1).value));
        });
        expect(new Set(codes).size).toBe(total);
        const bulk = codes.filter((c) => /^Z\d{5}$/.test(c));
        if (rowOrders) expect(bulk.slice(0, 2)).toEqual(["Z11000", "Z10999"]);
        else expect(codes.slice(-2)).toEqual(["Z10999", "Z11000"]);
      }
    } finally {
      await sql`delete from ctx_reference.currency where code like 'Z%' and created_by = 'test'`.execute(
        db,
      );
    }
  });

  it("answers 400 before any download for a bad query, and 403 without read rights", async () => {
    const bad = await t.post(
      "/api/query-xlsx",
      {
        context: "reference",
        entityType: "country",
        rowOrders: [{ attribute: "nope", asc: true }],
      },
      viewer,
    );
    expect(bad.statusCode).toBe(400);
    const denied = await t.post(
      "/api/query-xlsx",
      { context: "Data Dictionary", entityType: "edition" },
      viewer,
    );
    expect(denied.statusCode).toBe(403);
  });
});

describe("POST /api/xlsxgen", () => {
  it("writes the given fields and items", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/xlsxgen",
      headers: {
        cookie: viewer,
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      payload: JSON.stringify({
        fields: [
          { key: "a", header: "Alpha" },
          { key: "n", header: "Number" },
        ],
        items: [
          { a: "x", n: 1 },
          { a: "@SUM(1)", n: null },
        ],
      }),
    });
    expect(res.statusCode).toBe(200);
    const sheet = await workbookOf(res.rawPayload);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(["Alpha", "Number"]);
    expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual(["x", 1]);
    expect(sheet.getRow(3).getCell(1).value).toBe("@SUM(1)");
  });
});

describe("xlsx writer helpers", () => {
  it("names columns, dates and files as Excel and SPEC.md expect", () => {
    expect([0, 25, 26, 27, 701, 702].map(columnName)).toEqual(["A", "Z", "AA", "AB", "ZZ", "AAA"]);
    expect(dateSerial("1900-03-01")).toBe(61);
    expect(dateSerial("2024-01-01")).toBe(45292);
    expect(reportFileName(new Date(2026, 0, 5, 7, 3, 9))).toBe("Report_2026-01-05_7-03-09.xlsx");
  });

  it("puts the headers in the row asked for, as an upload layout with a later header row reads them", async () => {
    async function* rows() {
      yield ["DE", 2];
    }
    const columns = [
      { header: "Code", type: "String" as const },
      { header: "Units", type: "Number" as const },
    ];
    const sheet = await workbookOf(await buffer(writeXlsx(columns, rows(), "Items", 3)));
    expect(sheet.name).toBe("Items");
    expect([1, 2].map((r) => sheet.getRow(r).cellCount)).toEqual([0, 0]);
    expect(sheet.getRow(3).values).toEqual([undefined, "Code", "Units"]);
    expect(sheet.getRow(4).values).toEqual([undefined, "DE", 2]);
  });

  it("reads rows only as fast as the file is taken: an unread download holds a bounded number", async () => {
    let pulled = 0;
    async function* endless() {
      for (;;) {
        pulled += 1;
        yield [`row ${pulled}`, pulled, "2024-01-01"];
      }
    }
    const columns = [
      { header: "Text", type: "String" as const },
      { header: "Number", type: "Number" as const },
      { header: "Date", type: "Date" as const },
    ];
    const file = writeXlsx(columns, endless());
    // Until the writer stops pulling rows (compression runs on other threads, at their pace).
    const stopped = async () => {
      for (let last = -1; pulled !== last; ) {
        last = pulled;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return pulled;
    };
    const unread = await stopped();
    // Nobody reads the file: the writer stops at the streams' buffers, a few thousand rows.
    expect(unread).toBeGreaterThan(0);
    expect(unread).toBeLessThan(20_000);
    // Taking some of the file lets it go on, and stop again.
    for (let i = 0; i < 20; i++) file.read();
    const more = await stopped();
    expect(more).toBeGreaterThan(unread);
    expect(more).toBeLessThan(unread + 50_000);
    file.destroy();
  });
});
