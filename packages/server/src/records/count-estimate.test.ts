import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

// A threshold of 20 rows makes the seeded ISO currencies (about 180) a large list.
const ABOVE = 20;
let t: TestApp;
let viewer: string;
let currencies: number;

beforeAll(async () => {
  t = await createTestApp({ env: { COUNT_ESTIMATE_ABOVE: String(ABOVE) } });
  await t.createUser({ username: "viewer", roles: [{ context: "reference", role: "viewer" }] });
  viewer = await t.login("viewer", TEST_USER_PASSWORD);
  // The planner's statistics, as autovacuum would gather them on a server.
  await sql`analyze ctx_reference.currency`.execute(t.database.db);
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ctx_reference.currency`.execute(t.database.db);
  currencies = rows[0].n;
});
afterAll(() => t.close());

const allButOne = [{ attribute: "code", operator: "!=" as const, values: ["EUR"] }];

describe("counts of large lists", () => {
  it("answers the planner's estimate, marked as one, for a filter expected to match more rows than the threshold", async () => {
    expect(currencies).toBeGreaterThan(4 * ABOVE);
    const list = await listRecords(t, viewer, {
      entityType: "currency",
      rowConstraints: allButOne,
      pageSize: 10,
    });
    expect(list.querySizeEstimated).toBe(true);
    expect(list.querySize).toBeGreaterThan(ABOVE);
    expect(list.querySize).toBeLessThanOrEqual(2 * currencies);
    expect(list.data).toHaveLength(10);
  });

  it("counts exactly when asked to, with the same rows", async () => {
    const query = { entityType: "currency", rowConstraints: allButOne, pageSize: 10 };
    const estimated = await listRecords(t, viewer, query);
    const exact = await listRecords(t, viewer, { ...query, exactCount: true });
    expect(exact.querySize).toBe(currencies - 1);
    expect(exact.querySizeEstimated).toBeUndefined();
    expect(exact.data.map((r) => r.entityKeyID)).toEqual(estimated.data.map((r) => r.entityKeyID));
  });

  it("counts exactly below the threshold, without a filter, and for pending lists", async () => {
    const one = await listRecords(t, viewer, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "=", values: ["EUR"] }],
    });
    expect([one.querySize, one.querySizeEstimated]).toEqual([1, undefined]);
    const all = await listRecords(t, viewer, { entityType: "currency", pageSize: 10 });
    expect([all.querySize, all.querySizeEstimated]).toEqual([currencies, undefined]);
    const pending = await listRecords(t, viewer, {
      entityType: "currency",
      rowConstraints: allButOne,
      requirePending: true,
    });
    expect([pending.querySize, pending.querySizeEstimated]).toEqual([0, undefined]);
  });
});
