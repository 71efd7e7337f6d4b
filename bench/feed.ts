// `npm run bench -- feed`: changes downstream. The change feed read after an approval of 100,000
// changes (one upload's, seeded pending as the approve benchmark seeds them), page by page
// (POST /api/changes, 10,000 a page, one request after another): once as the approval answers
// (the indexes its bulk write dropped are being built again meanwhile) and once they are; the
// approval's time without and
// with a webhook subscription active (four approvals, in the order without, with, with, without,
// so that the events table's growth weighs on both alike); and 1,000 webhook deliveries to a
// local receiver that verifies each signature, from the outbox to the receiver.
import path from "node:path";
import type { ChangesPage, WebhookSecret } from "@ledgerline/contract";
import type { Kysely } from "kysely";
import { SILENT } from "../packages/server/src/notifications/notify.service.ts";
import type { RepeatingWork } from "../packages/server/src/repeating-work.ts";
import {
  startWebhookReceiver,
  type WebhookReceiver,
} from "../packages/server/src/testing/webhook-receiver.ts";
import { startWebhookSender } from "../packages/server/src/webhooks/sender.ts";
import { announce } from "../packages/server/src/webhooks/webhook-events.repository.ts";
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
  /** The first read, started as the approval answered (its index builds still running). */
  coldSeconds: number;
  approveSeconds: number[];
  /** The approvals with a subscription active (second and third). */
  approveWithSubscription: number[];
  readSeconds: number;
  changes: number;
  pages: number;
  deliverySeconds: number;
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);
/** How much slower the approvals with a subscription were, in percent. */
const slowerBy = (run: FeedRun) =>
  (sum(run.approveWithSubscription) / sum(run.approveSeconds) - 1) * 100;

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

const DELIVERIES = 1_000;

/** Waits until the receiver holds `count` deliveries (or throws after a minute). */
async function received(receiver: WebhookReceiver, count: number): Promise<void> {
  for (let waited = 0; receiver.received.length < count; waited += 20) {
    if (waited > 60_000)
      throw new Error(`the receiver got ${receiver.received.length} deliveries, not ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The webhook sender as the server runs it, in this process, and a subscription to the receiver. */
async function subscribe(setup: AppSetup, receiver: WebhookReceiver, cookie: string) {
  const created = await postJson<WebhookSecret>(
    `${setup.app.url}/api/webhooks/create`,
    {
      context: BENCH_CONTEXT,
      url: receiver.url("/bench"),
      entityTypes: [],
      kinds: ["changes.approved", "upload.decided"],
    },
    cookie,
  );
  receiver.secrets.push(created.secret);
  const sender: RepeatingWork = startWebhookSender({
    db: setup.bench.database.db,
    model: setup.app.prepared.model,
    webhooks: {
      timeoutMs: 10_000,
      maxAttempts: 8,
      secretOverlapHours: 24,
      allowPrivate: true,
      pollMs: 50,
    },
    notifier: SILENT,
    publicUrl: setup.app.url,
    log: setup.app.app.log,
  });
  return { subscriptionId: created.subscription.subscriptionId, sender };
}

async function approveUpload(setup: AppSetup, cookie: string, mark: string): Promise<number> {
  const uploadId = await seedPendingUpload(setup.bench, mark);
  const approved = await timed(() =>
    postJson(
      `${setup.app.url}/api/approve`,
      { context: BENCH_CONTEXT, entityType: BENCH_TYPE, uploadId },
      cookie,
    ),
  );
  console.log(`${mark}: approved in ${approved.seconds.toFixed(2)} s`);
  return approved.seconds;
}

/**
 * Waits for the index builds the approval left running after its answer: on PostgreSQL until none
 * is in progress; on PGlite a statement waits for them on the one session.
 */
async function indexBuildsEnded(bench: AppSetup["bench"]): Promise<void> {
  if (bench.kind === "pglite") {
    await bench.raw("select 1", []);
    return;
  }
  for (;;) {
    const [row] = (await bench.raw(
      "select count(*)::int as n from pg_stat_progress_create_index",
      [],
    )) as { n: number }[];
    if (row.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function measureFeed(setup: AppSetup, rows: number): Promise<FeedRun> {
  const { app, bench } = setup;
  console.log(`seeding ${rows.toLocaleString("en")} records...`);
  await seedItems(bench.database.db as unknown as Kysely<unknown>, rows);
  const cookie = await login(app.url);
  const before = await readToEnd(app.url, cookie, undefined);
  const without = [await approveUpload(setup, cookie, "Without-1")];
  const cold = await timed(() => readToEnd(app.url, cookie, before.cursor));
  console.log(
    `read ${cold.value.changes} changes right after the approval in ${cold.seconds.toFixed(2)} s`,
  );
  await indexBuildsEnded(bench);
  const read = await timed(() => readToEnd(app.url, cookie, before.cursor));
  for (const reading of [cold, read])
    if (reading.value.changes !== rows)
      throw new Error(
        `the feed gave ${reading.value.changes} changes after the approval, not ${rows}`,
      );
  console.log(`read them again in ${read.seconds.toFixed(2)} s`);

  const receiver = await startWebhookReceiver();
  try {
    const { subscriptionId, sender } = await subscribe(setup, receiver, cookie);
    const withSubscription: number[] = [];
    try {
      for (const mark of ["With-1", "With-2"]) {
        withSubscription.push(await approveUpload(setup, cookie, mark));
        // Each approval is one changes.approved and one upload.decided event, not 100,000.
        await received(receiver, withSubscription.length * 2);
      }
      const delivered = await timed(async () => {
        await bench.database.db.transaction().execute(async (tx) => {
          for (let i = 0; i < DELIVERIES; i++)
            await announce(tx, {
              context: BENCH_CONTEXT,
              kind: "upload.decided",
              entityTypes: [BENCH_TYPE],
              data: { upload: { id: i } },
            });
        });
        await received(receiver, 4 + DELIVERIES);
      });
      console.log(`${DELIVERIES} deliveries in ${delivered.seconds.toFixed(2)} s`);
      if (receiver.refused > 0)
        throw new Error(`${receiver.refused} deliveries failed verification`);
      await postJson(`${app.url}/api/webhooks/remove`, { subscriptionId }, cookie);
      await sender.stop();
      without.push(await approveUpload(setup, cookie, "Without-2"));
      return {
        approveSeconds: without,
        approveWithSubscription: withSubscription,
        coldSeconds: cold.seconds,
        readSeconds: read.seconds,
        changes: read.value.changes,
        pages: read.value.pages,
        deliverySeconds: delivered.seconds,
      };
    } finally {
      await sender.stop();
    }
  } finally {
    await receiver.close();
  }
}

function report(engine: string, run: FeedRun): void {
  const perSecond = run.changes / run.readSeconds;
  console.log(
    table([
      [`figure (${engine})`, "value", "target", "status"],
      [
        `approve ${run.changes.toLocaleString("en")} changes, no subscription (s)`,
        run.approveSeconds.map(round).join(" / "),
        "",
        "",
      ],
      [
        `the same, a subscription active (s)`,
        run.approveWithSubscription.map(round).join(" / "),
        "",
        "",
      ],
      [
        "approval slower with a subscription (%)",
        round(slowerBy(run)),
        "<= 10",
        check(slowerBy(run) <= 10),
      ],
      [`read them as the approval answered, ${run.pages} pages (s)`, run.coldSeconds, "", ""],
      ["the same (changes/s)", Math.round(run.changes / run.coldSeconds), "", ""],
      ["read them once its index builds ended (s)", run.readSeconds, "", ""],
      ["feed read (changes/s)", Math.round(perSecond), ">= 50,000", check(perSecond >= 50_000)],
      [
        `${DELIVERIES} webhook deliveries (s)`,
        run.deliverySeconds,
        "<= 10",
        check(run.deliverySeconds <= 10),
      ],
    ]),
  );
}

export async function benchFeed(): Promise<void> {
  const rows = envSize("BENCH_FEED_ROWS", 100_000);
  await announceBench("feed");
  const model = { "bench.yaml": benchModelWithLayout() };
  // The receiver listens on 127.0.0.1.
  const env = { WEBHOOK_ALLOW_PRIVATE: "true" };
  const run = await withBenchApp("feed", model, (setup) => measureFeed(setup, rows), env);
  report("PostgreSQL", run);
  const figures: Record<string, number> = {
    approve_s: round(sum(run.approveSeconds) / 2),
    approve_with_subscription_s: round(sum(run.approveWithSubscription) / 2),
    approve_slower_pct: round(slowerBy(run)),
    deliveries_1000_s: round(run.deliverySeconds),
    cold_read_s: round(run.coldSeconds),
    read_s: round(run.readSeconds),
    read_changes_per_s: Math.round(run.changes / run.readSeconds),
  };
  if (envFlag("BENCH_PGLITE", true)) {
    const lite = await withTempDir("feed-pglite", (dir) =>
      withApp(
        { pgliteDir: path.join(dir, "pglite") },
        model,
        (setup) => measureFeed(setup, rows),
        env,
      ),
    );
    report("PGlite", lite);
    figures.pglite_approve_s = round(sum(lite.approveSeconds) / 2);
    figures.pglite_approve_slower_pct = round(slowerBy(lite));
    figures.pglite_deliveries_1000_s = round(lite.deliverySeconds);
    figures.pglite_cold_read_s = round(lite.coldSeconds);
    figures.pglite_read_s = round(lite.readSeconds);
    figures.pglite_read_changes_per_s = Math.round(lite.changes / lite.readSeconds);
  }
  const file = await writeResult("feed", figures);
  console.log(`Finished with ${loadNote()}. Figures: ${file}`);
}
