import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";

describe.skipIf(testDatabaseKind() !== "postgres")("Database.genericReads", () => {
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
    expect(plans.settings).toMatchObject({ mode: "force_generic_plan", workers: "0" });
    expect(plans.rows).toHaveLength(1);
    expect(Number(plans.rows[0].generic_plans)).toBeGreaterThan(0);
    expect(Number(plans.rows[0].custom_plans)).toBe(0);
  });

  it("leaves the other connections' planning as the server has it, also at the same time", async () => {
    const failed = t.database.genericReads((reads) =>
      sql`select * from no_such_table`.execute(reads),
    );
    await expect(failed).rejects.toMatchObject({ code: "42P01" });
    const server = (
      await sql<{ workers: string }>`select boot_val as workers from pg_settings
        where name = 'max_parallel_workers_per_gather'`.execute(t.database.db)
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
});
