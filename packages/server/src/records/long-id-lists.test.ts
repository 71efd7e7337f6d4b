import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

// A statement holds at most 65,535 bind parameters on either engine: lists of 100,000 ids (a
// deletion, a decision, a page's pending changes) must travel as one array parameter. The records
// are fewer (past that limit all the same), to keep the test's time.

const MANY = 100_000;
const REAL = 70_000;
const LONG = 240_000;
let t: TestApp;
let steward: string;
let approver: string;
/** The keys of REAL currencies made for these tests, in order. */
let bulkKeys: number[];

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
  const db = t.database.db;
  const { rows } = await sql<{ entity_key_id: number }>`
    insert into ctx_reference.currency (code, name, created_by, updated_by)
    select 'Q' || lpad(i::text, 6, '0'), 'Bulk ' || i, 'test', 'test' from generate_series(1, ${REAL}) i
    returning entity_key_id`.execute(db);
  bulkKeys = rows.map((r) => Number(r.entity_key_id)).sort((a, b) => a - b);
  await sql`update app.type_counts set row_count = row_count + ${REAL}
    where context = 'reference' and entity_type = 'currency'`.execute(db);
}, LONG);
afterAll(() => t.close());

const post = (url: string, body: object, cookie: string) =>
  t.post(url, { context: "reference", entityType: "currency", ...body }, cookie);

/** Pending changes of the bulk currencies proposed by someone else, as an upload would: their ids. */
async function proposeChanges(keys: readonly number[], name: string): Promise<number[]> {
  const { rows } = await sql<{ event_id: number }>`
    insert into app.events (context, entity_type, entity_key_id, action, status, old_values, new_values,
                            base_version, source, created_by)
    select 'reference', 'currency', c.entity_key_id, 'Change', 'pending', '{}', ${JSON.stringify({ name })},
           c.version, 'upload:4242', 'seed-bot'
    from ctx_reference.currency c where c.entity_key_id = any(${[...keys]}::bigint[])
    returning event_id`.execute(t.database.db);
  return rows.map((r) => Number(r.event_id));
}

async function countWhere(condition: ReturnType<typeof sql>): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ctx_reference.currency where ${condition}`.execute(
    t.database.db,
  );
  return rows[0].n;
}

describe("lists of 100,000 ids", () => {
  it("a deletion of 100,000 keys, nearly all unknown, answers 404 naming the first ten and deletes nothing", async () => {
    const unknown = Array.from({ length: MANY - 10 }, (_, i) => 900_000_000 + i);
    const res = await post(
      "/api/delete",
      { entityKeyIds: [...bulkKeys.slice(0, 10), ...unknown] },
      steward,
    );
    expect(res.statusCode, res.body).toBe(404);
    expect(messageOf(res)).toBe(
      `No Currency record with key ${unknown.slice(0, 10).join(", ")}, ... (99990 unknown keys in all)`,
    );
    expect(await countWhere(sql`code similar to 'Q[0-9]{6}' and is_deleted`)).toBe(0);
  });

  it("refuses more than 100,000 keys with 400 naming the bound", async () => {
    const res = await post(
      "/api/delete",
      { entityKeyIds: Array.from({ length: MANY + 1 }, (_, i) => i + 1) },
      steward,
    );
    expect(res.statusCode).toBe(400);
    expect(messageOf(res)).toMatch(/entityKeyIds: .*100000/);
  });

  it(
    "a page of 70,000 records answers each one's pending change",
    async () => {
      await proposeChanges(bulkKeys, "Proposed");
      const list = await listRecords(t, approver, {
        entityType: "currency",
        requirePending: true,
        requestedAttributes: [],
        pageSize: MANY,
      });
      expect(list.querySize).toBe(REAL);
      expect(list.data).toHaveLength(REAL);
      expect(list.data.every((r) => r.pending?.[0].attrValues.name.value === "Proposed")).toBe(
        true,
      );
    },
    LONG,
  );

  it(
    "approves 70,000 changes named by id, and rejects 100,000 ids of which some are pending",
    async () => {
      const { rows } = await sql<{ event_id: number }>`
      select event_id from app.events where source = 'upload:4242' and status = 'pending'`.execute(
        t.database.db,
      );
      const ids = rows.map((r) => Number(r.event_id));
      expect(ids).toHaveLength(REAL);
      const approved = await post("/api/approve", { entityEventIds: ids }, approver);
      expect(approved.statusCode, approved.body).toBe(200);
      expect(approved.json()).toMatchObject({ count: REAL, conflicts: [] });
      expect(await countWhere(sql`name = 'Proposed'`)).toBe(REAL);

      const some = await proposeChanges(bulkKeys.slice(0, 1_000), "Refused");
      const unknown = Array.from({ length: MANY - some.length }, (_, i) => 900_000_000 + i);
      const rejected = await post(
        "/api/reject",
        { entityEventIds: [...some, ...unknown] },
        approver,
      );
      expect(rejected.statusCode, rejected.body).toBe(200);
      expect(rejected.json()).toMatchObject({ count: some.length });
      expect(await countWhere(sql`name = 'Refused'`)).toBe(0);
    },
    LONG,
  );

  it(
    "deletes 70,000 records named by key in one call",
    async () => {
      const res = await post("/api/delete", { entityKeyIds: bulkKeys }, steward);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ Msg: `${REAL} records deleted` });
      expect(await countWhere(sql`code similar to 'Q[0-9]{6}' and not is_deleted`)).toBe(0);
    },
    LONG,
  );
});
