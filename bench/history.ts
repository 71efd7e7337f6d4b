// `npm run bench -- history`: a year of history on 1,000,000 records (2,000,000 approved events,
// seeded set-based): page 1 of a list as of half-way through the year with its count, the export as
// of then beside today's, and a comparison of two moments a month apart; with EXPLAIN of each query.
import fs from "node:fs/promises";
import path from "node:path";
import type { CompareResult, EntityQuery } from "@ledgerline/contract";
import type { Kysely } from "kysely";
import { differences } from "../packages/server/src/history/compare.repository.ts";
import type { ContextModel, EntityType } from "../packages/server/src/model/model.ts";
import {
  buildListQuery,
  type ListQueryOptions,
} from "../packages/server/src/records/list-query.ts";
import { login } from "./support/app.ts";
import { envNumber, envSize } from "./support/env.ts";
import { breakdown, capturingDb, type Explained, explain } from "./support/explain.ts";
import { checkWorkbook, type ExportRun, timedExport } from "./support/export-file.ts";
import { type CheckedCounts, checkHistory } from "./support/history-check.ts";
import {
  type HistorySeed,
  type HistoryTimeline,
  historyTimeline,
  seedHistory,
} from "./support/history-seed.ts";
import { type LoadResult, load } from "./support/load.ts";
import { BENCH_CONTEXT, BENCH_MODEL_YAML, BENCH_TYPE } from "./support/model.ts";
import { loadNote, RESULTS_DIR, round, table, writeResult } from "./support/results.ts";
import { NAME_PREFIX } from "./support/seed.ts";
import {
  announceBench,
  type BenchSetup,
  check,
  percentile,
  postJson,
  timed,
  withBenchApp,
  withTempDir,
} from "./support/workload.ts";

const PAGE_SIZE = 20;
/** Rows per keyset chunk of an export (exports.service.ts reads 1,000 at a time). */
const EXPORT_CHUNK = 1_000;

interface Sizes {
  rows: number;
  samples: number;
  compareRuns: number;
  exportRounds: number;
}

interface HistoryRun {
  seed: HistorySeed;
  checked: CheckedCounts;
  asOfPage: LoadResult;
  page: LoadResult;
  compareMs: number[];
  compared: CompareResult;
  exports: { current: ExportRun[]; asOf: ExportRun[] };
  explained: Explained[];
}

const base = { context: BENCH_CONTEXT, entityType: BENCH_TYPE };
const byName = {
  ...base,
  pageSize: PAGE_SIZE,
  pageNum: 1,
  rowOrders: [{ attribute: "name", asc: true }],
};

function benchType(setup: BenchSetup): { context: ContextModel; type: EntityType } {
  const context = setup.app.prepared.model.contexts.find((c) => c.name === BENCH_CONTEXT);
  const type = context?.entityTypes.find((t) => t.name === BENCH_TYPE);
  if (!context || !type) throw new Error("the bench type is missing from the model");
  return { context, type };
}

/** Page 1 by name with its count, at 1 connection: a warm-up, then `samples` requests. */
async function measurePage(url: string, cookie: string, body: EntityQuery, samples: number) {
  const common = { url: `${url}/api/entity`, body, cookie, connections: 1, seconds: 600 };
  await load({ ...common, maxRequests: 20 });
  return load({ ...common, maxRequests: samples });
}

/** The comparison's first page, `runs` times after one warm-up; answers the times in ms. */
async function measureCompare(
  url: string,
  cookie: string,
  timeline: HistoryTimeline,
  runs: number,
) {
  const body = {
    ...base,
    from: timeline.monthBefore,
    to: timeline.half,
    pageSize: PAGE_SIZE,
    pageNum: 1,
  };
  const compare = () => postJson<CompareResult>(`${url}/api/compare`, body, cookie);
  const compared = await compare();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(compare)).seconds * 1000);
  return { times, compared };
}

/**
 * The full export now and as of half-way, in alternating rounds after a small warm-up of each;
 * the first round's files are read back and counted.
 */
async function measureExports(
  url: string,
  cookie: string,
  timeline: HistoryTimeline,
  checked: CheckedCounts,
  rounds: number,
  tmp: string,
) {
  const xlsx = `${url}/api/query-xlsx`;
  const warm = {
    rowConstraints: [{ attribute: "name", operator: "StartsWith", values: [NAME_PREFIX] }],
  };
  await timedExport(xlsx, cookie, { ...base, ...warm }, path.join(tmp, "warm.xlsx"));
  await timedExport(
    xlsx,
    cookie,
    { ...base, ...warm, asOf: timeline.half },
    path.join(tmp, "warm.xlsx"),
  );
  const current: ExportRun[] = [];
  const asOf: ExportRun[] = [];
  for (let round = 0; round < rounds; round++) {
    const now = path.join(tmp, `current-${round}.xlsx`);
    const then = path.join(tmp, `as-of-${round}.xlsx`);
    current.push(await timedExport(xlsx, cookie, base, now));
    console.log(`export now: ${current[round].seconds.toFixed(1)} s`);
    asOf.push(await timedExport(xlsx, cookie, { ...base, asOf: timeline.half }, then));
    console.log(`export as of half-way: ${asOf[round].seconds.toFixed(1)} s`);
    if (round === 0) {
      await checkWorkbook(now, checked.count.now);
      await checkWorkbook(then, checked.count.half);
    }
    await fs.rm(now);
    await fs.rm(then);
  }
  return { current, asOf };
}

/** EXPLAIN (ANALYZE, BUFFERS) of the SQL behind each measured request, built by the server's own code. */
async function explainAll(
  setup: BenchSetup,
  timeline: HistoryTimeline,
  rows: number,
  compared: CompareResult,
): Promise<Explained[]> {
  const { context, type } = benchType(setup);
  const db = setup.bench.database.db;
  const raw = setup.bench.raw;
  const list = (q: EntityQuery, options?: ListQueryOptions) =>
    buildListQuery(context, type, q, options);
  const asOf = list({ ...byName, asOf: timeline.half });
  const chunk = (at?: string) =>
    list(
      { ...base, pageSize: EXPORT_CHUNK, pageNum: 1, ...(at ? { asOf: at } : {}) },
      { afterKey: Math.floor(rows / 2) },
    ).page.compile(db);
  const explained: Explained[] = [];
  explained.push(await explain(raw, "as-of page 1 by name", asOf.page.compile(db)));
  if (asOf.count) explained.push(await explain(raw, "as-of count", asOf.count.compile(db)));
  explained.push(await explain(raw, "current page 1 by name", list(byName).page.compile(db)));
  explained.push(
    await explain(raw, `current export chunk (${EXPORT_CHUNK} rows from the middle)`, chunk()),
  );
  explained.push(
    await explain(
      raw,
      `as-of export chunk (${EXPORT_CHUNK} rows from the middle)`,
      chunk(timeline.half),
    ),
  );

  // The comparison's SQL is built inside its repository function: run it on a Kysely that keeps it.
  const capture = capturingDb(setup.database.url);
  try {
    await differences(capture.db, context, type, {
      earlier: timeline.monthBefore,
      later: timeline.half,
      backwards: false,
      kinds: [],
      constraints: [],
      groups: [],
      pageSize: PAGE_SIZE,
      pageNum: 1,
    });
  } finally {
    await capture.close();
  }
  explained.push(
    await explain(raw, "compare: differences (counts + page keys)", capture.captured[0]),
  );
  const keyIds = compared.data.map((d) => d.entityKeyID);
  for (const [label, at] of [
    ["from", timeline.monthBefore],
    ["to", timeline.half],
  ])
    explained.push(
      await explain(
        raw,
        `compare: the page's ${keyIds.length} records at '${label}'`,
        list(
          { ...base, asOf: at, includeDeleted: true, includeLabels: true, pageSize: 0 },
          { keyIds },
        ).page.compile(db),
      ),
    );
  return explained;
}

async function measureHistory(
  setup: BenchSetup,
  sizes: Sizes,
  timeline: HistoryTimeline,
  tmp: string,
): Promise<HistoryRun> {
  const { app, bench } = setup;
  console.log(
    `seeding ${sizes.rows.toLocaleString("en")} records and ${(2 * sizes.rows).toLocaleString("en")} events (${timeline.start} to ${timeline.end})...`,
  );
  const seed = await seedHistory(
    bench.database.db as unknown as Kysely<unknown>,
    sizes.rows,
    timeline,
  );
  console.log(
    `seeded in ${seed.seconds.toFixed(1)} s: ${seed.events.toLocaleString("en")} events, ${seed.historyRows.toLocaleString("en")} earlier versions, ${seed.currentCount.toLocaleString("en")} records current`,
  );
  const cookie = await login(app.url);
  const checking = await timed(() =>
    checkHistory(bench.raw, app.url, cookie, timeline, sizes.rows),
  );
  const checked = checking.value;
  console.log(
    `checked against the events in ${checking.seconds.toFixed(1)} s: counts ${JSON.stringify(checked.count)}, comparison ${JSON.stringify(checked.compare)}`,
  );

  const asOfPage = await measurePage(
    app.url,
    cookie,
    { ...byName, asOf: timeline.half },
    sizes.samples,
  );
  console.log(`as-of page 1 by name + count: p50 ${asOfPage.p50} ms, p99 ${asOfPage.p99} ms`);
  const page = await measurePage(app.url, cookie, byName, sizes.samples);
  console.log(`current page 1 by name + count: p50 ${page.p50} ms, p99 ${page.p99} ms`);
  const { times: compareMs, compared } = await measureCompare(
    app.url,
    cookie,
    timeline,
    sizes.compareRuns,
  );
  console.log(
    `compare, first page: p50 ${percentile(compareMs, 50).toFixed(0)} ms, p99 ${percentile(compareMs, 99).toFixed(0)} ms; ${JSON.stringify(compared.counts)}`,
  );
  const exports = await measureExports(app.url, cookie, timeline, checked, sizes.exportRounds, tmp);
  const explained = await explainAll(setup, timeline, sizes.rows, compared);
  return { seed, checked, asOfPage, page, compareMs, compared, exports, explained };
}

const median = (values: readonly number[]) => percentile(values, 50);

export async function benchHistory(): Promise<void> {
  const sizes: Sizes = {
    rows: envSize("BENCH_HISTORY_ROWS", 1_000_000),
    samples: envNumber("BENCH_HISTORY_SAMPLES", 300),
    compareRuns: envNumber("BENCH_HISTORY_COMPARE_RUNS", 5),
    exportRounds: envNumber("BENCH_HISTORY_EXPORT_ROUNDS", 1),
  };
  await announceBench("history");
  const timeline = historyTimeline();
  const run = await withTempDir("history", (tmp) =>
    withBenchApp("history", { "bench.yaml": BENCH_MODEL_YAML }, (setup) =>
      measureHistory(setup, sizes, timeline, tmp),
    ),
  );

  const exportNow = median(run.exports.current.map((e) => e.seconds));
  const exportThen = median(run.exports.asOf.map((e) => e.seconds));
  const ratio = exportThen / exportNow;
  const compareP50 = percentile(run.compareMs, 50);
  const compareP99 = percentile(run.compareMs, 99);
  const changed =
    run.compared.counts.Added + run.compared.counts.Changed + run.compared.counts.Removed;
  const file = await writeResult("history", {
    asof_page_p99_ms: run.asOfPage.p99,
    asof_page_p50_ms: run.asOfPage.p50,
    page_p99_ms: run.page.p99,
    page_p50_ms: run.page.p50,
    asof_export_ratio: round(ratio, 2),
    asof_export_s: round(exportThen, 2),
    export_s: round(exportNow, 2),
    compare_first_page_p99_ms: round(compareP99, 0),
    compare_first_page_p50_ms: round(compareP50, 0),
    compare_changed_records: changed,
    rows: sizes.rows,
    events: run.seed.events,
    history_rows: run.seed.historyRows,
    seed_s: round(run.seed.seconds, 1),
  });
  await fs.writeFile(
    path.join(RESULTS_DIR, "history-plans.txt"),
    run.explained.map((e) => `-- ${e.label}\n${e.text}\n`).join("\n"),
  );

  console.log(`\nFinished with ${loadNote()}.\n`);
  console.log(
    `${sizes.rows.toLocaleString("en")} records, ${run.seed.events.toLocaleString("en")} approved events over ${timeline.start.slice(0, 10)} to ${timeline.end.slice(0, 10)}, ${run.seed.historyRows.toLocaleString("en")} earlier versions (seeded in ${run.seed.seconds.toFixed(0)} s); as of ${timeline.half}; compared from ${timeline.monthBefore}\n`,
  );
  console.log(
    table([
      ["figure", "value", "target", "status"],
      [
        `as-of page 1 of 20 by name + count, p99 ms (${sizes.samples} requests)`,
        run.asOfPage.p99,
        "<= 150",
        check(run.asOfPage.p99 <= 150),
      ],
      ["as-of page 1 of 20 by name + count, p50 ms", run.asOfPage.p50, "", ""],
      [
        "current page 1 of 20 by name + count, p99 / p50 ms",
        `${run.page.p99} / ${run.page.p50}`,
        "",
        "",
      ],
      ["export as of half-way / export now", ratio, "<= 2", check(ratio <= 2)],
      [
        "export now / as of half-way (s)",
        `${exportNow.toFixed(1)} / ${exportThen.toFixed(1)}`,
        "",
        "",
      ],
      [
        `compare a month, first page, p99 ms (${sizes.compareRuns} runs)`,
        compareP99,
        "<= 1000",
        check(compareP99 <= 1000),
      ],
      ["compare a month, first page, p50 ms", compareP50, "", ""],
      [
        "compare counts (Added / Changed / Removed)",
        `${run.compared.counts.Added} / ${run.compared.counts.Changed} / ${run.compared.counts.Removed}`,
        "~100,000",
        "",
      ],
    ]),
  );
  const exportChunks = Math.ceil(run.checked.count.half / EXPORT_CHUNK);
  console.log(
    `\nWhere the time goes (EXPLAIN ANALYZE, BUFFERS; an export reads ~${exportChunks.toLocaleString("en")} chunks):\n`,
  );
  console.log(breakdown(run.explained));
  console.log(`\nFigures: ${file}; plans: ${path.join(RESULTS_DIR, "history-plans.txt")}`);
}
