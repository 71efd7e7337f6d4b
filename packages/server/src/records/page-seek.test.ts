import type { EntityList, EntityQuery, PageSeek, RowOrder } from "@ledgerline/contract";
import fc from "fast-check";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { momentBetweenSteps } from "../testing/moments.ts";
import { listRecords, messageOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
let steward: string;
let asOf: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  for (const iso2 of ["AD", "BE", "CH", "DK", "EE", "FI", "GR"]) {
    const res = await t.post(
      "/api/save",
      { context: "reference", entityType: "country", record: { iso2, population: 1000 } },
      steward,
    );
    expect(res.statusCode, res.body).toBe(200);
  }
  // Ties and nulls in every sorted column: four populations and no population, members unknown,
  // a few discontinued countries.
  await sql`update ctx_reference.country set updated_at = now(),
      population = case when entity_key_id % 3 = 0 then null else (entity_key_id % 4) * 1000 end,
      eu_member = case when entity_key_id % 5 = 0 then null else eu_member end,
      is_deleted = entity_key_id % 17 = 0`.execute(t.database.db);
  asOf = await momentBetweenSteps();
  await sql`update ctx_reference.country set updated_at = now(), population = 2000
    where entity_key_id % 7 = 0`.execute(t.database.db);
});
afterAll(() => t.close());

const list = (q: Partial<EntityQuery>) => listRecords(t, steward, { entityType: "country", ...q });

/** Every page of a list by offset: what any way of reaching a page must answer. */
async function pagesByOffset(q: Partial<EntityQuery>, pageSize: number): Promise<EntityList[]> {
  const first = await list({ ...q, pageSize, pageNum: 1 });
  const count = Math.max(Math.ceil(first.querySize / pageSize), 1);
  const pages = [first];
  for (let n = 2; n <= count; n++) pages.push(await list({ ...q, pageSize, pageNum: n }));
  return pages;
}

/** The seek a move from page `from` (shown as `shown`) to page `to` sends, as the web's control does. */
function seekFor(shown: EntityList, from: number, to: number, last: number): PageSeek | undefined {
  if (to === last && to > from + 3) return { last: true };
  const bounds = shown.bounds;
  if (!bounds || to === 1 || to === from || Math.abs(to - from) > 3) return undefined;
  const skipPages = Math.abs(to - from) - 1;
  return to > from ? { after: bounds.last, skipPages } : { before: bounds.first, skipPages };
}

/** Moves from page to page by seeking and expects each answer to be the offset's page. */
async function expectMoves(
  q: Partial<EntityQuery>,
  pageSize: number,
  pages: readonly EntityList[],
  route: readonly number[],
): Promise<void> {
  let from = 1;
  let shown = pages[0];
  for (const to of route) {
    const seek = seekFor(shown, from, to, pages.length);
    shown = await list({ ...q, pageSize, pageNum: to, ...(seek ? { seek } : {}) });
    expect(shown, `page ${from} -> ${to} by ${JSON.stringify(seek)}`).toEqual(pages[to - 1]);
    from = to;
  }
}

const range = (from: number, to: number) =>
  Array.from({ length: Math.abs(to - from) + 1 }, (_, i) => (to >= from ? from + i : from - i));

/** Forward to the end, the last page from the first, back to the start, and jumps of 2 and 3. */
function routeThrough(count: number): number[] {
  const around = range(1, count).flatMap((p) =>
    [p + 2, p, p + 3, p, p - 2, p, p - 3, p].filter((n) => n >= 1 && n <= count),
  );
  return [...range(2, count), 1, count, ...range(count - 1, 1), ...around];
}

const ORDERS: Record<string, { rowOrders?: RowOrder[]; includeLabels?: boolean }> = {
  "the default order (record id)": {},
  "population up (ties, nulls last)": { rowOrders: [{ attribute: "population", asc: true }] },
  "population down (nulls first)": { rowOrders: [{ attribute: "population", asc: false }] },
  "member down, then joining date up": {
    rowOrders: [
      { attribute: "eu_member", asc: false },
      { attribute: "joined_eu", asc: true },
    ],
  },
  "currency (a reference), then population down": {
    rowOrders: [
      { attribute: "currency", asc: true },
      { attribute: "population", asc: false },
    ],
  },
  "the label down": { rowOrders: [{ attribute: "_label", asc: false }], includeLabels: true },
  "a formula": { rowOrders: [{ attribute: "display", asc: true }] },
};

describe("seeking a page from its neighbour", () => {
  for (const [name, order] of Object.entries(ORDERS))
    it(`answers every page as its offset does: ${name}`, async () => {
      const q = { ...order, includeDeleted: true };
      const pages = await pagesByOffset(q, 12);
      expect(pages.length).toBeGreaterThan(20);
      await expectMoves(q, 12, pages, routeThrough(pages.length));
    });

  it("does so on a filtered list, a list as of a moment and a pending list", async () => {
    const lists: [Partial<EntityQuery>, number][] = [
      [
        {
          rowOrders: [{ attribute: "population", asc: true }],
          constraintGroups: [[{ attribute: "name", operator: "Contains", values: ["a"] }]],
        },
        10,
      ],
      [{ rowOrders: [{ attribute: "population", asc: false }], asOf, includeDeleted: true }, 15],
      [
        {
          rowOrders: [{ attribute: "iso2", asc: false }],
          requirePending: true,
          includeDeleted: true,
        },
        2,
      ],
    ];
    for (const [q, pageSize] of lists) {
      const pages = await pagesByOffset(q, pageSize);
      expect(pages.length).toBeGreaterThan(3);
      await expectMoves(q, pageSize, pages, routeThrough(pages.length));
    }
  });

  it("answers the last page from the offset when the count moved since the client counted", async () => {
    const q = { rowOrders: [{ attribute: "name", asc: true }] };
    const pages = await pagesByOffset(q, 10);
    const notLast = await list({ ...q, pageSize: 10, pageNum: 3, seek: { last: true } });
    expect(notLast).toEqual(pages[2]);
  });

  it("holds for any order, page size and moves (property)", async () => {
    const attributes = ["iso2", "currency", "population", "joined_eu", "eu_member", "display"];
    const rowOrders = fc.uniqueArray(
      fc.record({ attribute: fc.constantFrom(...attributes), asc: fc.boolean() }),
      { selector: (o) => o.attribute, maxLength: 3 },
    );
    await fc.assert(
      fc.asyncProperty(
        rowOrders,
        fc.integer({ min: 5, max: 40 }),
        fc.array(fc.integer({ min: -3, max: 3 }), { minLength: 1, maxLength: 12 }),
        async (orders, pageSize, steps) => {
          const q = { rowOrders: orders, includeDeleted: true };
          const pages = await pagesByOffset(q, pageSize);
          const route: number[] = [];
          let at = 1;
          for (const step of steps) {
            at = Math.min(Math.max(at + step, 1), pages.length);
            route.push(at);
          }
          await expectMoves(q, pageSize, pages, [...route, pages.length, ...route]);
        },
      ),
      { numRuns: 15 },
    );
  });
});

describe("a seek that cannot be a boundary of the list", () => {
  const sorted = { rowOrders: [{ attribute: "population", asc: true }], pageSize: 10 };
  const row = (orderValues: (string | null)[]) => ({ orderValues, entityKeyID: 1 });
  const cases: [string, object, string][] = [
    ["no side", { ...sorted, seek: {} }, "seek: give one of after, before and last"],
    [
      "two sides",
      { ...sorted, seek: { after: row(["1"]), last: true } },
      "seek: give one of after, before and last",
    ],
    [
      "a value for another order",
      { ...sorted, seek: { after: row(["1", "2"]) } },
      "seek: the boundary row has 2 sort values, the list is sorted by 1",
    ],
    [
      "text for a number",
      { ...sorted, seek: { before: row(["many"]) } },
      `seek: "many" is not a Number value for 'population'`,
    ],
    [
      "an impossible date",
      {
        rowOrders: [{ attribute: "joined_eu", asc: true }],
        seek: { after: row(["2024-02-30"]) },
      },
      `seek: "2024-02-30" is not a Date value for 'joined_eu'`,
    ],
    [
      "every row",
      { ...sorted, pageSize: 0, seek: { after: row(["1"]) } },
      "seek: a list of every row (pageSize 0) has no pages to seek",
    ],
    [
      "skipping pages from the end",
      { ...sorted, seek: { last: true, skipPages: 1 } },
      "seek: skipPages goes with after or before",
    ],
  ];
  for (const [name, body, message] of cases)
    it(`answers 400: ${name}`, async () => {
      const res = await t.post(
        "/api/entity",
        { context: "reference", entityType: "country", ...body },
        steward,
      );
      expect(res.statusCode, res.body).toBe(400);
      expect(messageOf(res)).toBe(message);
    });
});
