import { type Kysely, sql } from "kysely";
import { BENCH_MODEL_YAML } from "../support/model.ts";
import { seedItems } from "../support/seed.ts";
import { withBenchApp } from "../support/workload.ts";

await withBenchApp("ginexp", { "bench.yaml": BENCH_MODEL_YAML }, async ({ bench }) => {
  const db = bench.database.db as unknown as Kysely<unknown>;
  await seedItems(db, 1_000_000);
  await sql`vacuum analyze ctx_bench.item`.execute(db);
  await db.connection().execute(async (c) => {
    await sql`begin`.execute(c);
    await sql`set local gin_pending_list_limit = '256MB'`.execute(c);
    await sql`create temp table st as select code from ctx_bench.item where entity_key_id % 200 = 1`.execute(
      c,
    );
    const explain = async (label: string) => {
      await sql`set local enable_hashjoin = off`.execute(c);
      await sql`set local enable_mergejoin = off`.execute(c);
      const t0 = performance.now();
      const { rows } = await sql<{
        "QUERY PLAN": string;
      }>`explain (analyze, costs off) select s.code, t.entity_key_id from st s left join ctx_bench.item t on s.code = t.code`.execute(
        c,
      );
      console.log(
        label,
        (performance.now() - t0).toFixed(0),
        "ms\n" + rows.map((r) => r["QUERY PLAN"]).join("\n"),
      );
    };
    await explain("before");
    const t0 = performance.now();
    await sql`update ctx_bench.item t set name = t.name || 'x', code = t.code || 'y', updated_at = now() where entity_key_id % 10 = 7`.execute(
      c,
    );
    console.log("update", (performance.now() - t0).toFixed(0));
    await explain("after");
    await sql`set local enable_bitmapscan = off`.execute(c);
    await explain("after, no bitmap");
    await sql`rollback`.execute(c);
  });
});
