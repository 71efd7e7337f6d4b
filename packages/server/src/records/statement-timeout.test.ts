import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords, messageOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";

// STATEMENT_TIMEOUT_MS stops the reads a caller's request shapes (Database.reads) on PostgreSQL;
// the long work of uploads, decisions and deletions runs on connections without it. PGlite ignores
// statement_timeout (docs/decisions.md), so there the reads are its one session.

const ROWS = 200_000;
const onPostgres = testDatabaseKind() === "postgres";
let t: TestApp;
let steward: string;

beforeAll(async () => {
  t = await createTestApp({ env: { STATEMENT_TIMEOUT_MS: "200" } });
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
}, 120_000);
afterAll(() => t.close());

/** Statements of the list's filter still running on the server. */
async function stillRunning(): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_stat_activity
    where state = 'active' and query like '%ilike%' and pid <> pg_backend_pid()`.execute(
    t.database.db,
  );
  return rows[0].n;
}

describe.runIf(onPostgres)("a statement timeout on PostgreSQL", () => {
  it("answers 503 for a list whose pattern runs past it, stops the statement, and keeps the pool", async () => {
    await sql`insert into ctx_reference.currency (code, name, created_by, updated_by)
      select 'T' || lpad(i::text, 6, '0'), md5(i::text), 'test', 'test' from generate_series(1, ${ROWS}) i`.execute(
      t.database.db,
    );
    // A pattern of many wildcards costs every row work in proportion to its length (a real filter,
    // within the pattern bound), and an exact count reads every row.
    const pattern = `${"%a".repeat(99)}%`;
    const started = Date.now();
    const slow = await t.post(
      "/api/entity",
      {
        context: "reference",
        entityType: "currency",
        exactCount: true,
        rowConstraints: [{ attribute: "name", operator: "Like", values: [pattern] }],
      },
      steward,
    );
    expect(slow.statusCode, slow.body).toBe(503);
    expect(messageOf(slow)).toMatch(/^The database stopped this request: .*STATEMENT_TIMEOUT_MS/);
    expect(Date.now() - started).toBeLessThan(10_000);
    // The list's other statement (its count) is stopped within the same timeout.
    await expect.poll(stillRunning, { timeout: 5_000 }).toBe(0);
    const page = await listRecords(t, steward, { entityType: "currency", pageSize: 5 });
    expect(page.data).toHaveLength(5);
  }, 120_000);

  it("does not cut the long work of a deletion of many records", async () => {
    const { rows } = await sql<{ entity_key_id: number }>`
      select entity_key_id from ctx_reference.currency where code similar to 'T[0-9]{6}'`.execute(
      t.database.db,
    );
    const res = await t.post(
      "/api/delete",
      {
        context: "reference",
        entityType: "currency",
        entityKeyIds: rows.slice(0, 100_000).map((r) => Number(r.entity_key_id)),
      },
      steward,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ Msg: "100000 records deleted" });
  }, 120_000);
});

describe.runIf(!onPostgres)("PGlite", () => {
  it("reads through its one session, which has no statement timeout", () => {
    expect(t.database.reads).toBe(t.database.db);
  });
});
