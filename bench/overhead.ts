// `npm run bench -- overhead`: the per-call overhead of issue 23 on its own. Page 1 by name (the
// cheapest list call) at 50 connections, ours and the raw route running the same SQL in alternating
// rounds, with the process's CPU time per request; BENCH_CPU_PROFILE=<dir> also writes a V8 CPU
// profile of each of our rounds there (summarise with scripts/cpu-profile-summary.ts).
// BENCH_METRICS=1 runs ours with metrics on (METRICS_TOKEN set; a scrape every 5 s, as Prometheus
// would) and writes `overhead-metrics`: compare it with a run without.
import fs from "node:fs/promises";
import inspector from "node:inspector/promises";
import path from "node:path";
import type { EntityQuery } from "@ledgerline/contract";
import type { Kysely } from "kysely";
import { buildListQuery } from "../packages/server/src/records/list-query.ts";
import { login } from "./support/app.ts";
import { type CpuWatch, watchCpu } from "./support/cpu.ts";
import { envFlag, envNumber, envSize } from "./support/env.ts";
import { type LoadOptions, type LoadResult, load } from "./support/load.ts";
import { BENCH_CONTEXT, BENCH_MODEL_YAML, BENCH_TYPE } from "./support/model.ts";
import { startRawServer } from "./support/raw-server.ts";
import { loadNote, round, table, writeResult } from "./support/results.ts";
import { seedItems } from "./support/seed.ts";
import { announceBench, withBenchApp } from "./support/workload.ts";

const QUERY: EntityQuery = {
  context: BENCH_CONTEXT,
  entityType: BENCH_TYPE,
  pageSize: 20,
  pageNum: 1,
  rowOrders: [{ attribute: "name", asc: true }],
};

interface Round extends LoadResult {
  /** CPU ms of the whole process (server, and the load generator's thread) per request. */
  cpuPerRequest: number;
  /** The part of it spent in the kernel (socket writes and reads). */
  systemPerRequest: number;
  /** CPU ms of PostgreSQL's backends per request. */
  postgresPerRequest: number;
}

async function measured(
  options: LoadOptions,
  postgres: () => Promise<CpuWatch>,
  profile?: string,
): Promise<Round> {
  const session = profile ? new inspector.Session() : undefined;
  if (session) {
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.start");
  }
  const watch = await postgres();
  const before = process.cpuUsage();
  const result = await load(options);
  const cpu = process.cpuUsage(before);
  const { postgresMs } = await watch.stop();
  if (session && profile) {
    const { profile: written } = await session.post("Profiler.stop");
    await fs.writeFile(profile, JSON.stringify(written));
    session.disconnect();
  }
  return {
    ...result,
    cpuPerRequest: (cpu.user + cpu.system) / 1000 / result.requests,
    systemPerRequest: cpu.system / 1000 / result.requests,
    postgresPerRequest: postgresMs / result.requests,
  };
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

export async function benchOverhead(): Promise<void> {
  const rows = envSize("BENCH_OVERHEAD_ROWS", 100_000);
  const seconds = envNumber("BENCH_SECONDS", 5);
  const rounds = Math.round(envNumber("BENCH_ROUNDS", 3));
  const profileDir = process.env.BENCH_CPU_PROFILE;
  const metrics = envFlag("BENCH_METRICS", false);
  const metricsToken = "bench-metrics-token-0123456789";
  await announceBench(metrics ? "overhead with metrics on" : "overhead");
  if (profileDir) await fs.mkdir(profileDir, { recursive: true });
  const { ours, raw } = await withBenchApp(
    "overhead",
    { "bench.yaml": BENCH_MODEL_YAML },
    async ({ app, bench, database }) => {
      const postgres = () => watchCpu(bench.raw, database.name);
      await seedItems(bench.database.db as unknown as Kysely<unknown>, rows);
      const context = app.prepared.model.contexts.find((c) => c.name === BENCH_CONTEXT);
      const type = context?.entityTypes.find((t) => t.name === BENCH_TYPE);
      if (!context || !type) throw new Error("the bench type is missing from the model");
      const db = bench.database.db;
      const page = buildListQuery(context, type, QUERY).page.compile(db);
      const count = db
        .selectFrom("app.type_counts")
        .select("row_count")
        .where("context", "=", context.name)
        .where("entity_type", "=", type.name)
        .compile();
      const server = await startRawServer(bench.raw, {
        page: {
          page: { text: page.sql, params: page.parameters },
          count: { text: count.sql, params: count.parameters },
        },
      });
      // Prometheus's scrapes, while metrics are on.
      const scrapes = metrics
        ? setInterval(() => {
            void fetch(`${app.url}/metrics`, {
              headers: { authorization: `Bearer ${metricsToken}` },
            }).then((res) => res.text());
          }, 5_000)
        : undefined;
      try {
        const cookie = await login(app.url);
        const common = { connections: 50, seconds, maxRequests: 100_000 };
        const oursLoad = { ...common, url: `${app.url}/api/entity`, body: QUERY, cookie };
        const rawLoad = { ...common, url: `${server.url}/raw/page`, body: {} };
        const warm = { seconds: Math.min(2, seconds), maxRequests: 2_000 };
        await load({ ...oursLoad, ...warm });
        await load({ ...rawLoad, ...warm });
        const oursRounds: Round[] = [];
        const rawRounds: Round[] = [];
        for (let i = 0; i < rounds; i++) {
          const profile = profileDir ? path.join(profileDir, `ours-${i}.cpuprofile`) : undefined;
          oursRounds.push(await measured(oursLoad, postgres, profile));
          rawRounds.push(await measured(rawLoad, postgres));
          const [o, r] = [oursRounds[i], rawRounds[i]];
          console.log(
            `round ${i + 1}: ours ${o.rps.toFixed(0)} req/s p99 ${o.p99} ms; raw ${r.rps.toFixed(0)} req/s p99 ${r.p99} ms; ratio ${(o.rps / r.rps).toFixed(2)}, p99 ${(o.p99 / Math.max(r.p99, 1)).toFixed(2)} x`,
          );
        }
        return { ours: oursRounds, raw: rawRounds };
      } finally {
        clearInterval(scrapes);
        await server.close();
      }
    },
    metrics ? { METRICS_TOKEN: metricsToken } : {},
  );
  const figure = (list: Round[], key: keyof Round) => median(list.map((r) => r[key]));
  const rpsRatio = median(ours.map((o, i) => o.rps / raw[i].rps));
  const p99Ratio = median(ours.map((o, i) => o.p99 / Math.max(raw[i].p99, 1)));
  console.log(`\nFinished with ${loadNote()}.\n`);
  console.log(
    table([
      [
        "page 1 at 50 connections",
        "req/s",
        "p50 ms",
        "p99 ms",
        "CPU ms / request",
        "of it kernel",
        "PostgreSQL CPU ms / request",
      ],
      ...(
        [
          ["ours", ours],
          ["raw", raw],
        ] as const
      ).map(([name, list]) => [
        name,
        figure(list, "rps"),
        figure(list, "p50"),
        figure(list, "p99"),
        figure(list, "cpuPerRequest"),
        figure(list, "systemPerRequest"),
        figure(list, "postgresPerRequest"),
      ]),
    ]),
  );
  console.log(
    `\nreq/s ratio ${rpsRatio.toFixed(2)} (target >= 0.60), p99 ratio ${p99Ratio.toFixed(2)} x (target <= 2), medians of each round's ratio`,
  );
  const file = await writeResult(metrics ? "overhead-metrics" : "overhead", {
    rps_ratio: round(rpsRatio, 2),
    p99_ratio: round(p99Ratio, 2),
    rps: round(figure(ours, "rps"), 1),
    raw_rps: round(figure(raw, "rps"), 1),
    p99_ms: figure(ours, "p99"),
    raw_p99_ms: figure(raw, "p99"),
    cpu_ms_per_request: round(figure(ours, "cpuPerRequest"), 3),
    raw_cpu_ms_per_request: round(figure(raw, "cpuPerRequest"), 3),
    system_ms_per_request: round(figure(ours, "systemPerRequest"), 3),
    raw_system_ms_per_request: round(figure(raw, "systemPerRequest"), 3),
    postgres_ms_per_request: round(figure(ours, "postgresPerRequest"), 3),
    raw_postgres_ms_per_request: round(figure(raw, "postgresPerRequest"), 3),
  });
  console.log(`Figures: ${file}`);
}
