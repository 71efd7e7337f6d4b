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

  const planCacheMode = sql<{
    mode: string;
  }>`select current_setting('plan_cache_mode') as mode, pg_sleep(0.05)`;

  it("keeps a repeated statement prepared and plans it once, for any values", async () => {
    const plans = await t.database.genericReads(async (reads) => {
      const statement = (n: number) => sql<{ n: number }>`select ${n}::int + 1 as n`.execute(reads);
      for (let n = 1; n <= 6; n++) expect((await statement(n)).rows).toEqual([{ n: n + 1 }]);
      const mode = (await planCacheMode.execute(reads)).rows[0].mode;
      const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
        select generic_plans, custom_plans from pg_prepared_statements
        where statement = 'select $1::int + 1 as n'`.execute(reads);
      return { mode, rows };
    });
    expect(plans.mode).toBe("force_generic_plan");
    expect(plans.rows).toHaveLength(1);
    expect(Number(plans.rows[0].generic_plans)).toBeGreaterThan(0);
    expect(Number(plans.rows[0].custom_plans)).toBe(0);
  });

  it("leaves every connection as it found it, also when its work fails", async () => {
    const failed = t.database.genericReads((reads) =>
      sql`select * from no_such_table`.execute(reads),
    );
    await expect(failed).rejects.toMatchObject({ code: "42P01" });
    // The test database's pool holds five connections: all of them, at once.
    const modes = await Promise.all(
      Array.from(
        { length: 5 },
        async () => (await planCacheMode.execute(t.database.reads)).rows[0].mode,
      ),
    );
    expect(modes).toEqual(Array(5).fill("auto"));
  });
});
