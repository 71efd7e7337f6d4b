// `npm run bench -- explorer`: the explorer's first calls on a large type (issue 24, item 6). Page 1
// by name, a StartsWith filter with its count as the server answers it (an estimate above
// COUNT_ESTIMATE_ABOVE) and the same with exactCount, at 1 connection, on BENCH_EXPLORER_ROWS
// (10,000,000) records; the page and count SQL of the filter are explained (ANALYZE, BUFFERS).
// BENCH_EXPLORER_PREFIX is one prefix or several, comma-separated ('ab,a'): each is measured on
// the same seed.
import type { EntityList, EntityQuery } from "@ledgerline/contract";
import type { Kysely } from "kysely";
import { buildListQuery } from "../packages/server/src/records/list-query.ts";
import { login } from "./support/app.ts";
import { envNumber, envSize } from "./support/env.ts";
import { load } from "./support/load.ts";
import { BENCH_CONTEXT, BENCH_MODEL_YAML, BENCH_TYPE } from "./support/model.ts";
import { loadNote, table, writeResult } from "./support/results.ts";
import { seedItems } from "./support/seed.ts";
import { announceBench, postJson, withBenchApp } from "./support/workload.ts";

const base = { context: BENCH_CONTEXT, entityType: BENCH_TYPE, pageSize: 20, pageNum: 1 };

export async function benchExplorer(): Promise<void> {
  const rows = envSize("BENCH_EXPLORER_ROWS", 10_000_000);
  const seconds = envNumber("BENCH_SECONDS", 10);
  const prefixes = (process.env.BENCH_EXPLORER_PREFIX ?? "a").split(",");
  await announceBench("explorer");
  const filters = prefixes.map((prefix): [string, EntityQuery] => [
    prefix,
    { ...base, rowConstraints: [{ attribute: "name", operator: "StartsWith", values: [prefix] }] },
  ]);
  const queries: [string, EntityQuery][] = [
    ["page 1 by name", { ...base, rowOrders: [{ attribute: "name", asc: true }] }],
    ...filters.flatMap(([prefix, filter]): [string, EntityQuery][] => [
      [`name StartsWith '${prefix}' + count`, filter],
      [`the same, exactCount`, { ...filter, exactCount: true }],
    ]),
  ];
  const lines = await withBenchApp("explorer", { "bench.yaml": BENCH_MODEL_YAML }, async (s) => {
    const seeded = await seedItems(s.bench.database.db as unknown as Kysely<unknown>, rows);
    console.log(`seeded ${rows.toLocaleString("en")} records in ${seeded.toFixed(0)} s`);
    const cookie = await login(s.app.url);
    const url = `${s.app.url}/api/entity`;
    const measured = [];
    for (const [name, q] of queries) {
      const answer = await postJson<EntityList>(url, q, cookie);
      await load({ url, body: q, cookie, connections: 1, seconds: 2, maxRequests: 200 });
      const r = await load({ url, body: q, cookie, connections: 1, seconds, maxRequests: 2_000 });
      const size = `${answer.querySize}${answer.querySizeEstimated ? " (estimated)" : ""}`;
      measured.push({ name, size, ...r });
    }
    const context = s.app.prepared.model.contexts.find((c) => c.name === BENCH_CONTEXT);
    const type = context?.entityTypes.find((t) => t.name === BENCH_TYPE);
    if (!context || !type) throw new Error("the bench type is missing from the model");
    for (const [prefix, filter] of filters) {
      const built = buildListQuery(context, type, filter);
      for (const [label, query] of [
        ["page", built.page],
        ["count", built.count],
      ] as const) {
        if (!query) continue;
        const c = query.compile(s.bench.database.db);
        const plan = await s.bench.raw(`explain (analyze, buffers) ${c.sql}`, c.parameters);
        const text = (plan as Record<string, string>[]).map((p) => p["QUERY PLAN"]).join("\n");
        console.log(`\n${label} of StartsWith '${prefix}':\n${text}`);
      }
    }
    return measured;
  });
  console.log(`\nFinished with ${loadNote()}.\n`);
  console.log(
    table([
      ["query at 1 connection", "querySize", "p50 ms", "p99 ms", "req/s"],
      ...lines.map((l) => [l.name, l.size, l.p50, l.p99, l.rps]),
    ]),
  );
  const file = await writeResult("explorer", {
    rows,
    page_p99_ms: lines[0].p99,
    ...Object.fromEntries(
      prefixes.flatMap((prefix, i) => [
        [`filter_${prefix}_count_p99_ms`, lines[1 + 2 * i].p99],
        [`filter_${prefix}_exact_count_p99_ms`, lines[2 + 2 * i].p99],
      ]),
    ),
  });
  console.log(`Figures: ${file}`);
}
