import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { openDatabase, withStartupSettings } from "./connection.ts";

// On PostgreSQL a pool of connections set so; on PGlite its one session, the statement kept
// prepared by the thread (pglite-prepared.ts).
describe("Database.genericReads", () => {
  const postgres = testDatabaseKind() === "postgres";
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const settings = sql<{ mode: string; workers: string }>`
    select current_setting('plan_cache_mode') as mode,
      current_setting('max_parallel_workers_per_gather') as workers, pg_sleep(0.05)`;

  it("keeps a repeated statement prepared and plans it once, for any values, without parallel workers", async () => {
    const plans = await t.database.genericReads(async (reads) => {
      const statement = (n: number) => sql<{ n: number }>`select ${n}::int + 1 as n`.execute(reads);
      for (let n = 1; n <= 6; n++) expect((await statement(n)).rows).toEqual([{ n: n + 1 }]);
      const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
        select generic_plans, custom_plans from pg_prepared_statements
        where statement = 'select $1::int + 1 as n'`.execute(reads);
      return { settings: (await settings.execute(reads)).rows[0], rows };
    });
    expect(plans.settings.mode).toBe("force_generic_plan");
    if (postgres) expect(plans.settings.workers).toBe("0");
    expect(plans.rows).toHaveLength(1);
    expect(Number(plans.rows[0].generic_plans)).toBeGreaterThan(0);
    expect(Number(plans.rows[0].custom_plans)).toBe(0);
  });

  it("gives every type of value and null, and answers an error as such", async () => {
    const moment = new Date("2026-11-30T05:00:00.000Z");
    const row = await t.database.genericReads(async (reads) => {
      const read = (text: string | null, at: Date) =>
        sql<{ text: string | null; at: Date; upper: string | null }>`
          select ${text}::text as text, ${at}::timestamptz as at, upper(${text}) as upper`.execute(
          reads,
        );
      await read("first", moment);
      return (await read(null, moment)).rows[0];
    });
    expect(row).toEqual({ text: null, at: moment, upper: null });
    const failed = t.database.genericReads((reads) =>
      sql`select * from no_such_table where id = ${1}`.execute(reads),
    );
    await expect(failed).rejects.toMatchObject({ code: "42P01" });
    // And the next one runs: nothing of the failure is left on the connection or session.
    const again = await t.database.genericReads((reads) =>
      sql<{ n: number }>`select ${41}::int + 1 as n`.execute(reads),
    );
    expect(again.rows).toEqual([{ n: 42 }]);
  });

  it("leaves the other connections' planning as the server has it, also at the same time", async () => {
    const server = (
      await sql<{ workers: string }>`select current_setting('max_parallel_workers_per_gather')
        as workers`.execute(t.database.db)
    ).rows[0].workers;
    // The test database's pool holds five connections: all of them, at once, beside generic ones.
    const [others, generic] = await Promise.all([
      Promise.all(
        Array.from({ length: 5 }, async () => (await settings.execute(t.database.reads)).rows[0]),
      ),
      Promise.all(
        Array.from(
          { length: 5 },
          async () => (await t.database.genericReads((reads) => settings.execute(reads))).rows[0],
        ),
      ),
    ]);
    expect(others.map((s) => [s.mode, s.workers])).toEqual(Array(5).fill(["auto", server]));
    expect(generic.map((s) => s.mode)).toEqual(Array(5).fill("force_generic_plan"));
  });

  it.skipIf(!postgres)(
    "runs at most searchConnections statements at once, the others waiting for a connection",
    async () => {
      const database = await openDatabase({
        databaseUrl: t.database.url,
        poolSize: 5,
        searchConnections: 2,
      });
      const backend = sql<{ pid: number }>`select pg_backend_pid() as pid, pg_sleep(0.1)`;
      try {
        const pids = await Promise.all(
          Array.from({ length: 6 }, async () =>
            database.genericReads(async (reads) => (await backend.execute(reads)).rows[0].pid),
          ),
        );
        expect(new Set(pids).size).toBe(2);
        // The other pools keep their own size.
        const others = await Promise.all(
          Array.from(
            { length: 5 },
            async () => (await backend.execute(database.reads)).rows[0].pid,
          ),
        );
        expect(new Set(others).size).toBe(5);
      } finally {
        await database.close();
      }
    },
  );

  it.skipIf(!postgres)(
    "keeps its settings beside the options a connection string gives, which the others keep",
    async () => {
      const url = new URL(t.database.url ?? "");
      url.searchParams.set("options", "-c work_mem=5MB -c plan_cache_mode=force_custom_plan");
      const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 1 });
      const memory = sql<{ memory: string; mode: string }>`
        select current_setting('work_mem') as memory, current_setting('plan_cache_mode') as mode`;
      try {
        const generic = await database.genericReads((reads) => memory.execute(reads));
        expect(generic.rows).toEqual([{ memory: "5MB", mode: "force_generic_plan" }]);
        const other = await memory.execute(database.db);
        expect(other.rows).toEqual([{ memory: "5MB", mode: "force_custom_plan" }]);
      } finally {
        await database.close();
      }
    },
  );
});

describe("withStartupSettings", () => {
  it("joins a URL's options and the pool's, and leaves a string that is no URL alone", () => {
    expect(
      withStartupSettings("postgres://u@h:5432/db?options=-c%20work_mem%3D5MB&sslmode=disable", {
        plan_cache_mode: "force_generic_plan",
      }),
    ).toEqual({
      connectionString: "postgres://u@h:5432/db?sslmode=disable",
      options: "-c work_mem=5MB -c plan_cache_mode=force_generic_plan",
    });
    expect(withStartupSettings("postgres://u@h/db", {})).toEqual({
      connectionString: "postgres://u@h/db",
    });
    expect(withStartupSettings("/var/run/postgresql ledgerline", { a: "1" })).toEqual({
      connectionString: "/var/run/postgresql ledgerline",
      options: "-c a=1",
    });
  });
});
