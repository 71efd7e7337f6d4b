import { MAX_FILTER_CONSTRAINTS, MAX_PATTERN_LENGTH } from "@ledgerline/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

// The work one list call may ask for is bounded: the rows of a list of every row (pageSize 0), the
// constraints and values of its filter, and the length of a pattern.

const MAX_ROWS = 100;
let t: TestApp;
let viewer: string;
let countries: number;

beforeAll(async () => {
  t = await createTestApp({ env: { LIST_ALL_MAX_ROWS: String(MAX_ROWS) } });
  await t.createUser({ username: "viewer", roles: [{ context: "reference", role: "viewer" }] });
  viewer = await t.login("viewer", TEST_USER_PASSWORD);
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ctx_reference.country where not is_deleted and not is_pending_new`.execute(
    t.database.db,
  );
  countries = rows[0].n;
});
afterAll(() => t.close());

const list = (body: object) =>
  t.post("/api/entity", { context: "reference", entityType: "country", ...body }, viewer);

const nameIs = (name: string) => ({ attribute: "name", operator: "=", values: [name] });

describe("a list of every row (pageSize 0)", () => {
  it("answers up to LIST_ALL_MAX_ROWS rows, and refuses a longer list with 400 naming both counts", async () => {
    expect(countries).toBeGreaterThan(MAX_ROWS);
    const short = await listRecords(t, viewer, {
      entityType: "country",
      pageSize: 0,
      rowConstraints: [{ attribute: "iso2", operator: "StartsWith", values: ["A"] }],
    });
    expect(short.data.length).toBe(short.querySize);
    const long = await list({ pageSize: 0 });
    expect(long.statusCode).toBe(400);
    expect(messageOf(long)).toBe(
      `This list has ${countries} rows, more than the ${MAX_ROWS} one answer may hold (LIST_ALL_MAX_ROWS): page through it, or export it with Generate xlsx`,
    );
  });

  it("refuses a page larger than the bound, and still exports every row", async () => {
    const page = await list({ pageSize: MAX_ROWS + 1 });
    expect(page.statusCode).toBe(400);
    expect(messageOf(page)).toBe(
      `pageSize: a page holds at most ${MAX_ROWS} rows (LIST_ALL_MAX_ROWS); this one asks for ${MAX_ROWS + 1}`,
    );
    expect((await list({ pageSize: MAX_ROWS })).statusCode).toBe(200);
    const xlsx = await t.post(
      "/api/query-xlsx",
      { context: "reference", entityType: "country", pageSize: 0 },
      viewer,
    );
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.length).toBeGreaterThan(0);
  });

  it("tells the web client the bound, which offers 'All' only up to it", async () => {
    const res = await t.app.inject({ method: "GET", url: "/app-config.json" });
    expect(res.json()).toMatchObject({ listAllMaxRows: MAX_ROWS });
  });
});

describe("the size of a filter", () => {
  it(`refuses more than ${MAX_FILTER_CONSTRAINTS} constraints, counted across the groups too`, async () => {
    const many = Array.from({ length: MAX_FILTER_CONSTRAINTS + 1 }, (_, i) => nameIs(`N${i}`));
    const flat = await list({ rowConstraints: many });
    expect(flat.statusCode).toBe(400);
    expect(messageOf(flat)).toBe(
      `rowConstraints: a query holds at most ${MAX_FILTER_CONSTRAINTS} filter constraints (rowConstraints and constraintGroups together); this one holds ${MAX_FILTER_CONSTRAINTS + 1}`,
    );
    const grouped = await list({
      rowConstraints: many.slice(0, 30),
      constraintGroups: [many.slice(30, 40), many.slice(40)],
    });
    expect(grouped.statusCode).toBe(400);
    expect((await list({ rowConstraints: many.slice(0, MAX_FILTER_CONSTRAINTS) })).statusCode).toBe(
      200,
    );
    const compare = await t.post(
      "/api/compare",
      {
        context: "reference",
        entityType: "country",
        from: "2020-01-01T00:00:00Z",
        to: new Date().toISOString(),
        rowConstraints: many,
      },
      viewer,
    );
    expect(compare.statusCode).toBe(400);
    expect(messageOf(compare)).toMatch(/at most 50 filter constraints/);
  });

  it("refuses more than 1000 values across the constraints", async () => {
    const values = Array.from({ length: 600 }, (_, i) => `N${i}`);
    const res = await list({
      rowConstraints: [
        { attribute: "name", operator: "=", values },
        { attribute: "iso2", operator: "=", values },
      ],
    });
    expect(res.statusCode).toBe(400);
    expect(messageOf(res)).toBe(
      "rowConstraints: the filter constraints of a query hold at most 1000 values together; these hold 1200",
    );
  });

  it(`refuses a pattern longer than ${MAX_PATTERN_LENGTH} characters, and takes one as long`, async () => {
    const long = `%${"a%".repeat(MAX_PATTERN_LENGTH)}`;
    const res = await list({
      rowConstraints: [{ attribute: "name", operator: "Like", values: ["x", long] }],
    });
    expect(res.statusCode).toBe(400);
    expect(messageOf(res)).toBe(
      `rowConstraints.0.values.1: a Like pattern is at most ${MAX_PATTERN_LENGTH} characters long; this one has ${long.length}`,
    );
    const contains = await list({
      rowConstraints: [{ attribute: "name", operator: "!Contains", values: ["x".repeat(201)] }],
    });
    expect(contains.statusCode).toBe(400);
    const fits = await list({
      rowConstraints: [
        { attribute: "name", operator: "Like", values: [long.slice(0, MAX_PATTERN_LENGTH)] },
      ],
    });
    expect(fits.statusCode, fits.body).toBe(200);
    // '=' compares whole values, not patterns: a long one is no pattern to refuse.
    expect((await list({ rowConstraints: [nameIs("y".repeat(500))] })).statusCode).toBe(200);
  });
});
