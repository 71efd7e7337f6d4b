// `npm run bench -- feed`: the change feed read after an approval of 100,000 changes (one
// upload's, seeded pending as the approve benchmark seeds them): the approval's time with the
// feed's bookkeeping, and how fast a reader takes the 100,000 changes page by page
// (POST /api/changes, 10,000 a page, one request after another).
import path from "node:path";
import type { ChangesPage } from "@ledgerline/contract";
import type { Kysely } from "kysely";
import { login } from "./support/app.ts";
import { envFlag, envSize } from "./support/env.ts";
import { BENCH_CONTEXT, BENCH_TYPE } from "./support/model.ts";
import { loadNote, round, table, writeResult } from "./support/results.ts";
import { seedItems, seedPendingUpload } from "./support/seed.ts";
import {
  type AppSetup,
  announceBench,
  benchModelWithLayout,
  check,
  postJson,
  timed,
  withApp,
  withBenchApp,
  withTempDir,
} from "./support/workload.ts";

const PAGE = 10_000;

interface FeedRun {
  approveSeconds: number;
  readSeconds: number;
  changes: number;
  pages: number;
}

/** Reads the feed from `after` to its end; answers the changes read, the pages and the last cursor. */
async function readToEnd(url: string, cookie: string, after: string | undefined) {
  let cursor = after;
  let changes = 0;
  let pages = 0;
  for (;;) {
    const page = await postJson<ChangesPage>(
      `${url}/api/changes`,
      { context: BENCH_CONTEXT, entityTypes: [BENCH_TYPE], after: cursor, limit: PAGE },
      cookie,
    );
    if (page.changes.length === 0) return { changes, pages, cursor };
    changes += page.changes.length;
    pages += 1;
    cursor = page.next ?? cursor;
  }
}

async function measureFeed(setup: AppSetup, rows: number): Promise<FeedRun> {
  const { app, bench } = setup;
  console.log(`seeding ${rows.toLocaleString("en")} records...`);
  await seedItems(bench.database.db as unknown as Kysely<unknown>, rows);
  const uploadId = await seedPendingUpload(bench, "Feed");
  const cookie = await login(app.url);
  const before = await readToEnd(app.url, cookie, undefined);
  const approved = await timed(() =>
    postJson(
      `${app.url}/api/approve`,
      { context: BENCH_CONTEXT, entityType: BENCH_TYPE, uploadId },
      cookie,
    ),
  );
  console.log(`approved in ${approved.seconds.toFixed(2)} s`);
  const read = await timed(() => readToEnd(app.url, cookie, before.cursor));
  if (read.value.changes !== rows)
    throw new Error(`the feed gave ${read.value.changes} changes after the approval, not ${rows}`);
  console.log(`read ${read.value.changes} changes in ${read.seconds.toFixed(2)} s`);
  return {
    approveSeconds: approved.seconds,
    readSeconds: read.seconds,
    changes: read.value.changes,
    pages: read.value.pages,
  };
}

function report(engine: string, run: FeedRun): void {
  const perSecond = run.changes / run.readSeconds;
  console.log(
    table([
      [`figure (${engine})`, "value", "target", "status"],
      [`approve ${run.changes.toLocaleString("en")} changes (s)`, run.approveSeconds, "", ""],
      [`read them from the feed, ${run.pages} pages (s)`, run.readSeconds, "", ""],
      ["feed read (changes/s)", Math.round(perSecond), ">= 50,000", check(perSecond >= 50_000)],
    ]),
  );
}

export async function benchFeed(): Promise<void> {
  const rows = envSize("BENCH_FEED_ROWS", 100_000);
  await announceBench("feed");
  const model = { "bench.yaml": benchModelWithLayout() };
  const run = await withBenchApp("feed", model, (setup) => measureFeed(setup, rows));
  report("PostgreSQL", run);
  const figures: Record<string, number> = {
    approve_s: round(run.approveSeconds),
    read_s: round(run.readSeconds),
    read_changes_per_s: Math.round(run.changes / run.readSeconds),
  };
  if (envFlag("BENCH_PGLITE", true)) {
    const lite = await withTempDir("feed-pglite", (dir) =>
      withApp({ pgliteDir: path.join(dir, "pglite") }, model, (setup) => measureFeed(setup, rows)),
    );
    report("PGlite", lite);
    figures.pglite_approve_s = round(lite.approveSeconds);
    figures.pglite_read_s = round(lite.readSeconds);
    figures.pglite_read_changes_per_s = Math.round(lite.changes / lite.readSeconds);
  }
  const file = await writeResult("feed", figures);
  console.log(`Finished with ${loadNote()}. Figures: ${file}`);
}
