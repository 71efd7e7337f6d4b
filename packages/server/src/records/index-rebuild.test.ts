import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/connection.ts";
import { oneSession } from "../db/pglite-dialect.ts";
import { openTestDatabase, testDatabaseKind } from "../testing/test-database.ts";
import { buildIndexes } from "./index-rebuild.ts";

let database: Database;

beforeAll(async () => {
  database = await openTestDatabase();
  await sql`drop table if exists public.build_probe`.execute(database.db);
  await sql`create table public.build_probe (a int, b int, c int, d int)`.execute(database.db);
  await sql`insert into public.build_probe
    select n, n % 7, n % 11, n % 13 from generate_series(1, 20000) n`.execute(database.db);
});
afterAll(async () => {
  await sql`drop table if exists public.build_probe`.execute(database.db);
  await database.close();
});

const builtNow = async () => {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from pg_indexes where tablename = 'build_probe'`.execute(database.db);
  return rows[0].n;
};

describe("buildIndexes", () => {
  it("tells the embedded database apart, in a transaction too", async () => {
    const embedded = testDatabaseKind() === "pglite";
    expect(oneSession(database.db)).toBe(embedded);
    expect(await database.transaction(async (tx) => oneSession(tx))).toBe(embedded);
  });

  it("lets a call made meanwhile in after the build under way on PGlite's one session", async () => {
    const definitions = ["a", "b", "c", "d"].map(
      (column) =>
        `CREATE INDEX build_probe__${column} ON public.build_probe USING btree (${column})`,
    );
    const builds = buildIndexes(database.db, definitions);
    const seen = await builtNow();
    await builds;
    expect(await builtNow()).toBe(4);
    // On PostgreSQL the builds run on other connections, and the call does not wait for them.
    if (oneSession(database.db)) expect(seen).toBeLessThanOrEqual(1);
  });
});
