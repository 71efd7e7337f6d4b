// `npm run bench -- records`: list queries of /api/entity on 1,000,000 records (PostgreSQL) and
// 100,000 (PGlite), at 1 and 50 connections, beside a raw Fastify + driver route running the same SQL.
import path from "node:path";
import type { EntityQuery } from "@ledgerline/contract";
import type { Kysely } from "kysely";
import type { Db } from "../packages/server/src/db/connection.ts";
import type { Model } from "../packages/server/src/model/model.ts";
import { buildListQuery } from "../packages/server/src/records/list-query.ts";
import { login } from "./support/app.ts";
import { envFlag, envNumber, envSize } from "./support/env.ts";
import { type LoadResult, load } from "./support/load.ts";
import { BENCH_CONTEXT, BENCH_MODEL_YAML, BENCH_TYPE } from "./support/model.ts";
import { type MoveFigure, measureMoves, movesReport, slowestMove } from "./support/page-moves.ts";
import { type RawEndpoint, startRawServer } from "./support/raw-server.ts";
import { loadNote, round, table, writeResult } from "./support/results.ts";
import { NAME_PREFIX, seedItems } from "./support/seed.ts";
import {
  type AppSetup,
  announceBench,
  withApp,
  withBenchApp,
  withTempDir,
} from "./support/workload.ts";

const PAGE_SIZE = 20;
const QUERY_NAMES = ["page", "filter", "deep", "breaks"] as const;
type QueryName = (typeof QUERY_NAMES)[number];

const LABELS: Record<QueryName, string> = {
  page: "page 1 by name",
  filter: `name StartsWith '${NAME_PREFIX}' + count`,
  deep: "deep page",
  breaks: "'Breaks a rule' + count",
};

/** The three list queries; the deep page sits half-way through the rows (page 25,000 of 1,000,000). */
function queries(rows: number): Record<QueryName, EntityQuery> {
  const base = { context: BENCH_CONTEXT, entityType: BENCH_TYPE, pageSize: PAGE_SIZE };
  return {
    page: { ...base, pageNum: 1, rowOrders: [{ attribute: "name", asc: true }] },
    filter: {
      ...base,
      pageNum: 1,
      rowConstraints: [{ attribute: "name", operator: "StartsWith", values: [NAME_PREFIX] }],
    },
    deep: { ...base, pageNum: Math.max(1, Math.floor(rows / 2 / PAGE_SIZE)) },
    // Its exact count, as the raw route counts (a list this large would otherwise answer the
    // planner's estimate: docs/decisions.md, counts of large lists).
    breaks: { ...base, pageNum: 1, breaksRule: true, exactCount: true },
  };
}

/** The SQL the app runs for a query, compiled by the app's own query builder. */
function rawEndpoint(db: Db, model: Model, q: EntityQuery): RawEndpoint {
  const context = model.contexts.find((c) => c.name === q.context);
  const type = context?.entityTypes.find((t) => t.name === q.entityType);
  if (!context || !type) throw new Error("the bench type is missing from the model");
  const built = buildListQuery(context, type, q);
  const page = built.page.compile(db);
  const count = built.count
    ? built.count.compile(db)
    : db
        .selectFrom("app.type_counts")
        .select("row_count")
        .where("context", "=", context.name)
        .where("entity_type", "=", type.name)
        .compile();
  return {
    page: { text: page.sql, params: page.parameters },
    count: { text: count.sql, params: count.parameters },
  };
}

interface Measured {
  ours: LoadResult;
  raw: LoadResult;
}
/** The concurrency each query is measured at: a whole-table scan is not a query 50 users repeat. */
const LEVELS: Record<QueryName, readonly (1 | 50)[]> = {
  page: [1, 50],
  filter: [1, 50],
  deep: [1, 50],
  breaks: [1],
};
type Run = Record<QueryName, Partial<Record<1 | 50, Measured>> & { 1: Measured }>;

/** The median p99, p50 and requests/s of several rounds (each taken on its own). */
function median(results: readonly LoadResult[]): LoadResult {
  const mid = <K extends keyof LoadResult>(key: K) => {
    const sorted = results.map((r) => r[key]).sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)];
  };
  return {
    p99: mid("p99"),
    p50: mid("p50"),
    rps: mid("rps"),
    requests: results.reduce((sum, r) => sum + r.requests, 0),
  };
}

interface RunSummary {
  engine: string;
  rows: number;
  seedSeconds: number;
  deepPage: number;
  run: Run;
  /** Page 1 at 50 connections with the session cookie and with an API token. */
  tokenRun: { cookie: LoadResult; token: LoadResult };
  /** The pagination control's moves through the list sorted by name, by seek and by offset. */
  moves: MoveFigure[];
}

async function post(url: string, body: unknown, cookie?: string): Promise<Record<string, unknown>> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      ...(cookie ? { cookie, "sec-fetch-site": "same-origin" } : {}),
    },
    body: JSON.stringify(body),
  });
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Seeds, starts the raw baseline beside the app on one engine, checks both answer alike, measures. */
async function benchEngine(
  label: string,
  { app, bench }: AppSetup,
  rows: number,
  seconds: number,
  rounds: number,
): Promise<RunSummary> {
  console.log(`${label}: seeding ${rows.toLocaleString("en")} records...`);
  const seedSeconds = await seedItems(bench.database.db as unknown as Kysely<unknown>, rows);
  console.log(`${label}: seeded in ${seedSeconds.toFixed(1)} s`);
  const qs = queries(rows);
  const endpoints = Object.fromEntries(
    QUERY_NAMES.map((n) => [n, rawEndpoint(bench.database.db, app.prepared.model, qs[n])]),
  ) as Record<QueryName, RawEndpoint>;
  const raw = await startRawServer(bench.raw, endpoints);
  try {
    const cookie = await login(app.url);
    for (const n of QUERY_NAMES) {
      const ours = await post(`${app.url}/api/entity`, qs[n], cookie);
      const base = await post(`${raw.url}/raw/${n}`, {});
      const oursData = ours.data as { entityKeyID: number }[];
      const rawData = base.data as { entity_key_id: number }[];
      if (
        oursData.length !== PAGE_SIZE ||
        ours.querySize !== base.querySize ||
        oursData[0].entityKeyID !== Number(rawData[0].entity_key_id)
      )
        throw new Error(
          `${label} ${n}: the app and the raw route answer differently (rows ${oursData.length} / ${rawData.length}, size ${ours.querySize} / ${base.querySize}, first ${oursData[0]?.entityKeyID} / ${rawData[0]?.entity_key_id})`,
        );
      if ((n === "page" || n === "deep") && ours.querySize !== rows)
        throw new Error(`${label} ${n}: querySize ${ours.querySize}, expected ${rows}`);
    }
    const run = {} as Run;
    for (const n of QUERY_NAMES) {
      run[n] = {} as Run[QueryName];
      for (const connections of LEVELS[n]) {
        const ours = { url: `${app.url}/api/entity`, body: qs[n], cookie, connections };
        const base = { url: `${raw.url}/raw/${n}`, body: {}, connections };
        const bound = { maxRequests: connections === 1 ? 5_000 : 100_000 };
        const warm = { seconds: Math.min(2, seconds), maxRequests: 1_000 };
        await load({ ...ours, ...warm });
        await load({ ...base, ...warm });
        // Alternating rounds, so a burst of load from elsewhere on the machine hits both sides.
        const oursRounds: LoadResult[] = [];
        const rawRounds: LoadResult[] = [];
        for (let round = 0; round < rounds; round++) {
          oursRounds.push(await load({ ...ours, seconds, ...bound }));
          rawRounds.push(await load({ ...base, seconds, ...bound }));
        }
        const measured = { ours: median(oursRounds), raw: median(rawRounds) };
        run[n][connections] = measured;
        const { ours: o, raw: r } = measured;
        console.log(
          `${label} ${LABELS[n]} at ${connections} connection(s): ours p99 ${o.p99} ms, ${o.rps.toFixed(0)} req/s; raw p99 ${r.p99} ms, ${r.rps.toFixed(0)} req/s`,
        );
      }
    }
    const tokenRun = await measureToken(app.url, qs.page, cookie, seconds, rounds);
    console.log(
      `${label} page 1 at 50 connections: cookie ${tokenRun.cookie.rps.toFixed(0)} req/s p99 ${tokenRun.cookie.p99} ms; token ${tokenRun.token.rps.toFixed(0)} req/s p99 ${tokenRun.token.p99} ms`,
    );
    console.log(`${label}: the pagination control's moves, sorted by name, at 1 connection`);
    const moves = await measureMoves(
      { url: `${app.url}/api/entity`, cookie, list: qs.page, seconds, rounds },
      median,
    );
    return {
      engine: label,
      rows,
      seedSeconds,
      deepPage: qs.deep.pageNum as number,
      run,
      tokenRun,
      moves,
    };
  } finally {
    await raw.close();
  }
}

/**
 * Page 1 at 50 connections signed in two ways, in alternating rounds: with the session cookie and
 * with a read API token of the same user.
 */
async function measureToken(
  url: string,
  query: EntityQuery,
  cookie: string,
  seconds: number,
  rounds: number,
): Promise<{ cookie: LoadResult; token: LoadResult }> {
  const created = await post(
    `${url}/api/tokens/create`,
    { name: "bench", scope: "read", expiresInDays: 1 },
    cookie,
  );
  const authorization = `Bearer ${created.secret as string}`;
  const common = { url: `${url}/api/entity`, body: query, connections: 50 };
  await load({ ...common, authorization, seconds: Math.min(2, seconds), maxRequests: 1_000 });
  const byCookie: LoadResult[] = [];
  const byToken: LoadResult[] = [];
  for (let round = 0; round < rounds; round++) {
    byCookie.push(await load({ ...common, cookie, seconds, maxRequests: 100_000 }));
    byToken.push(await load({ ...common, authorization, seconds, maxRequests: 100_000 }));
  }
  return { cookie: median(byCookie), token: median(byToken) };
}

function report(s: RunSummary): string {
  const rows: (string | number)[][] = [
    [
      "query",
      "conn",
      "p50 ms",
      "raw p50",
      "p99 ms",
      "raw p99",
      "p99 ratio",
      "req/s",
      "raw req/s",
      "req/s ratio",
    ],
  ];
  for (const n of QUERY_NAMES) {
    for (const c of LEVELS[n]) {
      const { ours, raw } = s.run[n][c] as Measured;
      const name = n === "deep" ? `deep page ${s.deepPage.toLocaleString("en")}` : LABELS[n];
      rows.push([
        name,
        c,
        ours.p50,
        raw.p50,
        ours.p99,
        raw.p99,
        ours.p99 / Math.max(raw.p99, 1),
        ours.rps,
        raw.rps,
        ours.rps / raw.rps,
      ]);
    }
  }
  return `${s.engine}, ${s.rows.toLocaleString("en")} records (seeded in ${s.seedSeconds.toFixed(0)} s)\n${table(rows)}\n\nThe pagination control's moves, sorted by name, 1 connection:\n${movesReport(s.moves)}`;
}

function targets(s: RunSummary): string[] {
  const check = (ok: boolean, text: string) => `${ok ? "met    " : "MISSED "} ${text}`;
  const r = s.run;
  const lines = [
    check(r.page[1].ours.p99 <= 15, `page 1 p99 ${r.page[1].ours.p99} ms <= 15 ms`),
    check(r.filter[1].ours.p99 <= 15, `filter+count p99 ${r.filter[1].ours.p99} ms <= 15 ms`),
    check(
      r.deep[1].ours.p99 <= 2 * r.deep[1].raw.p99,
      `deep page p99 ${r.deep[1].ours.p99} ms <= 2 x raw ${r.deep[1].raw.p99} ms`,
    ),
    check(
      r.breaks[1].ours.p99 <= 500,
      `'Breaks a rule' page 1 + count p99 ${r.breaks[1].ours.p99} ms <= 500 ms`,
    ),
  ];
  for (const n of QUERY_NAMES.filter((q) => LEVELS[q].includes(50))) {
    const { ours, raw } = r[n][50] as Measured;
    lines.push(
      check(
        ours.rps >= 0.5 * raw.rps,
        `${LABELS[n]} at 50: ${ours.rps.toFixed(0)} req/s >= 50% of raw ${raw.rps.toFixed(0)}`,
      ),
      check(
        ours.p99 <= 1.5 * raw.p99,
        `${LABELS[n]} at 50: p99 ${ours.p99} ms <= 1.5 x raw ${raw.p99} ms`,
      ),
    );
  }
  const moves = slowestMove(s.moves);
  lines.push(check(moves <= 10, `every pagination move p99 <= 10 ms: slowest ${moves} ms`));
  const { cookie, token } = s.tokenRun;
  lines.push(
    check(
      token.rps >= 0.95 * cookie.rps,
      `page 1 at 50 with an API token: ${token.rps.toFixed(0)} req/s vs ${cookie.rps.toFixed(0)} with the cookie (p99 ${token.p99} vs ${cookie.p99} ms)`,
    ),
  );
  return lines;
}

/** The slowest move, and next from half-way by seek and by offset. */
function moveFigures(moves: readonly MoveFigure[]): Record<string, number> {
  const halfway = moves.filter((m) => m.move === "next").sort((a, b) => a.from - b.from)[1];
  return {
    moves_slowest_p99_ms: slowestMove(moves),
    ...(halfway?.seek
      ? {
          halfway_next_seek_p99_ms: halfway.seek.p99,
          halfway_next_offset_p99_ms: halfway.offset.p99,
        }
      : {}),
  };
}

export async function benchRecords(): Promise<void> {
  const rows = envSize("BENCH_ROWS", 1_000_000);
  const pgliteRows = envSize("BENCH_PGLITE_ROWS", 100_000);
  const seconds = envNumber("BENCH_SECONDS", 5);
  const rounds = Math.round(envNumber("BENCH_ROUNDS", 3));
  await announceBench("records");

  const model = { "bench.yaml": BENCH_MODEL_YAML };
  // The token run sends far more than a pipeline's allowance per minute.
  const env = { TOKEN_RATE_LIMIT: "100000000" };
  const summaries: RunSummary[] = [
    await withBenchApp(
      "records",
      model,
      (setup) => benchEngine("PostgreSQL", setup, rows, seconds, rounds),
      env,
    ),
  ];
  if (envFlag("BENCH_PGLITE", true))
    summaries.push(
      await withTempDir("pglite", (dir) =>
        withApp(
          { pgliteDir: path.join(dir, "pglite") },
          model,
          (setup) => benchEngine("PGlite", setup, pgliteRows, seconds, rounds),
          env,
        ),
      ),
    );

  const pg = summaries[0].run;
  const file = await writeResult("records", {
    page_p99_ms: pg.page[1].ours.p99,
    filter_count_p99_ms: pg.filter[1].ours.p99,
    deep_page_p99_ms: pg.deep[1].ours.p99,
    breaks_rule_p99_ms: pg.breaks[1].ours.p99,
    raw_deep_page_p99_ms: pg.deep[1].raw.p99,
    rps: round((pg.filter[50] as Measured).ours.rps, 1),
    raw_rps: round((pg.filter[50] as Measured).raw.rps, 1),
    c50_p99_ms: (pg.filter[50] as Measured).ours.p99,
    raw_c50_p99_ms: (pg.filter[50] as Measured).raw.p99,
    cookie_page_c50_rps: round(summaries[0].tokenRun.cookie.rps, 1),
    token_page_c50_rps: round(summaries[0].tokenRun.token.rps, 1),
    cookie_page_c50_p99_ms: summaries[0].tokenRun.cookie.p99,
    token_page_c50_p99_ms: summaries[0].tokenRun.token.p99,
    ...moveFigures(summaries[0].moves),
  });
  console.log(`\nFinished with ${loadNote()}.\n`);
  for (const s of summaries) {
    console.log(`${report(s)}\n`);
    console.log(`Targets (${s.engine}):\n  ${targets(s).join("\n  ")}\n`);
  }
  console.log(
    `Figures (PostgreSQL; the 50-connection figures are the StartsWith + count query): ${file}`,
  );
}
