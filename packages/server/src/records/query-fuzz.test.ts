import { FILTER_OPERATORS } from "@ledgerline/contract";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
let viewer: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "viewer", roles: [{ context: "reference", role: "viewer" }] });
  viewer = await t.login("viewer", TEST_USER_PASSWORD);
});
afterAll(() => t.close());

const ATTRIBUTES = [
  "iso2",
  "name",
  "currency",
  "population",
  "joined_eu",
  "eu_member",
  "verified_on",
  "display",
  "population_band",
];
const hostile = fc.oneof(
  fc.string(),
  fc.constantFrom(
    "'; drop table app.users; --",
    '" or 1=1 --',
    "%",
    "_",
    "\\",
    "\u0000",
    "1970-01-01",
    "2024-02-30",
    "NaN",
    "__proto__",
    "constructor",
  ),
);
const attribute = fc.oneof(fc.constantFrom(...ATTRIBUTES), hostile);
const operator = fc.oneof(fc.constantFrom(...FILTER_OPERATORS), hostile);
const value = fc.oneof(hostile, fc.integer(), fc.double(), fc.boolean(), fc.constant(null));
const boundary = fc.record({
  orderValues: fc.array(fc.oneof(hostile, fc.constant(null)), { maxLength: 2 }),
  entityKeyID: fc.integer({ min: 1, max: 300 }),
});
const seek = fc.oneof(
  fc.record({ after: boundary, skipPages: fc.integer({ min: 0, max: 2 }) }),
  fc.record({ before: boundary }),
  fc.record({ last: fc.boolean() }),
);
const constraint = fc.record({
  attribute,
  operator,
  values: fc.array(value, { minLength: 1, maxLength: 3 }),
});

async function fingerprint(): Promise<string> {
  const { rows } =
    await sql`select (select count(*) from app.events)::int as e, (select coalesce(sum(version), 0) from ctx_reference.country)::int as v,
    (select count(*) from app.users)::int as u`.execute(t.database.db);
  return JSON.stringify(rows[0]);
}

describe("/api/entity under random and hostile constraints, orders and seeks", () => {
  it("refuses text with a NUL character, huge numbers and impossible dates with a 400", async () => {
    for (const [attribute, v] of [
      ["name", "a\u0000b"],
      ["population", 1e308],
      ["joined_eu", "0001-01-01"],
    ] as const) {
      const res = await t.post(
        "/api/entity",
        {
          context: "reference",
          entityType: "country",
          rowConstraints: [{ attribute, operator: "=", values: [v] }],
        },
        viewer,
      );
      expect([200, 400], `${attribute} ${String(v)}`).toContain(res.statusCode);
    }
    const nul = await t.post(
      "/api/entity",
      {
        context: "reference",
        entityType: "country",
        rowConstraints: [{ attribute: "name", operator: "=", values: ["a\u0000b"] }],
      },
      viewer,
    );
    expect([nul.statusCode, nul.json()]).toEqual([
      400,
      { message: "Text may not contain the NUL character" },
    ]);
  });

  it("answers 200 or a 400 naming the problem, never a 500 or an SQL error, and changes nothing", async () => {
    const before = await fingerprint();
    await fc.assert(
      fc.asyncProperty(
        fc.array(constraint, { maxLength: 3 }),
        fc.array(fc.record({ attribute, asc: fc.boolean() }), { maxLength: 2 }),
        fc.option(
          fc.array(
            fc.oneof(fc.constantFrom(...ATTRIBUTES, "currency.code", "currency.nothing"), hostile),
            { maxLength: 3 },
          ),
          { nil: undefined },
        ),
        fc.option(seek, { nil: undefined }),
        async (rowConstraints, rowOrders, requestedAttributes, seek) => {
          const res = await t.post(
            "/api/entity",
            {
              context: "reference",
              entityType: "country",
              pageSize: 5,
              rowConstraints,
              rowOrders,
              requestedAttributes,
              seek,
            },
            viewer,
          );
          expect([200, 400]).toContain(res.statusCode);
          if (res.statusCode === 400) {
            const message = res.json().message as string;
            expect(message).not.toMatch(/syntax error|relation "|column "|SQLSTATE|at character/i);
          }
        },
      ),
      { numRuns: 300, seed: 20261121 },
    );
    expect(await fingerprint()).toBe(before);
  });
});
