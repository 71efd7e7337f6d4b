// `npm run bench -- approve`: 100,000 pending Change events of one type (seeded set-based as one
// upload), the p99 of a pending page of 20 among them, then the whole upload approved in one call
// (POST /api/approve with its uploadId); then a second upload of as many changes rejected in one
// call. During each decision a probe pages the pending screen of another type.
import path from "node:path";
import type { Kysely } from "kysely";
import { login } from "./support/app.ts";
import { envNumber, envSize } from "./support/env.ts";
import { BENCH_CONTEXT, BENCH_SCHEMA, BENCH_TYPE, PROBE_TYPE } from "./support/model.ts";
import { loadNote, round, table, writeResult } from "./support/results.ts";
import { SEED_USER, seedItems, seedPendingUpload } from "./support/seed.ts";
import {
  type AppSetup,
  announceBench,
  benchModelWithLayout,
  check,
  percentile,
  postJson,
  timed,
  withApp,
  withBenchApp,
  withTempDir,
} from "./support/workload.ts";

/** Records of the probe's type (bench/support/model.ts), whose pending screen is paged meanwhile. */
const PROBE_ROWS = 20_000;

/** The records of the probe's type, each with one pending change (not of an upload). */
async function seedProbeType({ bench }: AppSetup): Promise<void> {
  const probe = `${BENCH_SCHEMA}.${PROBE_TYPE}`;
  await bench.raw(
    `insert into ${probe} (code, name, amount, created_by, updated_by)
     select 'P' || lpad(i::text, 6, '0'), 'Part ' || i, i % 1000, $1, $1
     from generate_series(1, ${PROBE_ROWS}) as i`,
    [SEED_USER],
  );
  await bench.raw(
    `insert into app.events (context, entity_type, entity_key_id, action, status, old_values,
       new_values, base_version, source, created_by, created_at, effective_from)
     select $1, $2, t.entity_key_id, 'Change', 'pending', jsonb_build_object('amount', t.amount),
       jsonb_build_object('amount', t.amount + 1),
       t.version, 'bench', $3, now(), now()
     from ${probe} t order by t.entity_key_id`,
    [BENCH_CONTEXT, PROBE_TYPE, SEED_USER],
  );
}

interface Probe {
  p99: number;
  p50: number;
  max: number;
  requests: number;
}

/**
 * Runs `decide` while paging the pending screen of the probe's type (page 1 of 20, one request
 * after another) until it answers; answers its time and what the probe saw.
 */
async function decideWhileProbing(
  url: string,
  cookie: string,
  decide: () => Promise<unknown>,
): Promise<{ seconds: number; answer: unknown; probe: Probe }> {
  let done = false;
  const times: number[] = [];
  const probe = (async () => {
    while (!done) {
      const t = await timed(() =>
        postJson<{ data: unknown[] }>(
          `${url}/api/entity`,
          {
            context: BENCH_CONTEXT,
            entityType: PROBE_TYPE,
            requirePending: true,
            pageSize: 20,
            pageNum: 1,
          },
          cookie,
        ),
      );
      if (t.value.data.length !== 20) throw new Error(`probe page: ${t.value.data.length} rows`);
      times.push(t.seconds * 1000);
    }
  })();
  const decided = await timed(decide).finally(() => {
    done = true;
  });
  await probe;
  return {
    seconds: decided.seconds,
    answer: decided.value,
    probe: {
      p99: percentile(times, 99),
      p50: percentile(times, 50),
      max: Math.max(...times),
      requests: times.length,
    },
  };
}

interface Decision {
  seconds: number;
  probe: Probe;
  answer: string;
}

interface ApproveRun {
  approve: Decision;
  reject: Decision;
  p99: number;
  p50: number;
}

/** The p99 and p50 of the pending page of the item type (pages 1-10 of 20). */
async function samplePendingPage(url: string, cookie: string, rows: number, samples: number) {
  const page = (pageNum: number) =>
    postJson<{ data: unknown[]; querySize: number }>(
      `${url}/api/entity`,
      {
        context: BENCH_CONTEXT,
        entityType: BENCH_TYPE,
        requirePending: true,
        includeDeleted: true,
        pageSize: 20,
        pageNum,
      },
      cookie,
    );
  const firstPage = await page(1);
  if (firstPage.data.length !== 20 || firstPage.querySize !== rows)
    throw new Error(`pending page: ${firstPage.data.length} rows of ${firstPage.querySize}`);
  for (let i = 0; i < 10; i++) await page(1 + (i % 5)); // warm-up
  const times: number[] = [];
  for (let i = 0; i < samples; i++) {
    const t = await timed(() => page(1 + (i % 10)));
    times.push(t.seconds * 1000);
  }
  return { p99: percentile(times, 99), p50: percentile(times, 50) };
}

/** Seeds the records and the probe's type, then approves one upload and rejects another. */
async function measureDecisions(
  setup: AppSetup,
  rows: number,
  samples: number,
): Promise<ApproveRun> {
  const { app, bench } = setup;
  console.log(`seeding ${rows.toLocaleString("en")} records...`);
  await seedItems(bench.database.db as unknown as Kysely<unknown>, rows);
  await seedProbeType(setup);
  const seeded = await timed(() => seedPendingUpload(setup.bench, "Pending"));
  console.log(`pending upload seeded in ${seeded.seconds.toFixed(1)} s`);
  const cookie = await login(app.url);
  const { p99, p50 } = await samplePendingPage(app.url, cookie, rows, samples);
  console.log(`pending page: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);

  const decide = (verb: "approve" | "reject", uploadId: number) => () =>
    postJson(
      `${app.url}/api/${verb}`,
      { context: BENCH_CONTEXT, entityType: BENCH_TYPE, uploadId },
      cookie,
    );
  const approved = await decideWhileProbing(app.url, cookie, decide("approve", seeded.value));
  console.log(`approved in ${approved.seconds.toFixed(1)} s`);
  const [afterApprove] = (await bench.raw(
    `select (select count(*)::int from app.events where status = 'pending' and entity_type = $1) as pending,
       (select count(*)::int from ${BENCH_SCHEMA}.${BENCH_TYPE} where name like 'Pending %') as changed,
       (select count(*)::int from ${BENCH_SCHEMA}.${BENCH_TYPE}__history) as versions`,
    [BENCH_TYPE],
  )) as { pending: number; changed: number; versions: number }[];
  if (afterApprove.pending !== 0 || afterApprove.changed !== rows || afterApprove.versions !== rows)
    throw new Error(`after approve: ${JSON.stringify(afterApprove)}`);

  const second = await seedPendingUpload(setup.bench, "Rejected");
  const rejected = await decideWhileProbing(app.url, cookie, decide("reject", second));
  console.log(`rejected in ${rejected.seconds.toFixed(1)} s`);
  const [afterReject] = (await bench.raw(
    `select (select count(*)::int from app.events where status = 'rejected') as rejected,
       (select count(*)::int from ${BENCH_SCHEMA}.${BENCH_TYPE} where name like 'Rejected %') as changed`,
    [],
  )) as { rejected: number; changed: number }[];
  if (afterReject.rejected !== rows || afterReject.changed !== 0)
    throw new Error(`after reject: ${JSON.stringify(afterReject)}`);

  const decision = (d: typeof approved): Decision => ({
    seconds: d.seconds,
    probe: d.probe,
    answer: JSON.stringify(d.answer).slice(0, 300),
  });
  return { approve: decision(approved), reject: decision(rejected), p99, p50 };
}

/** Prints a run's figures against the targets. */
function report(engine: string, rows: number, samples: number, run: ApproveRun): void {
  console.log(`\n${engine}: approve answered: ${run.approve.answer}`);
  console.log(`${engine}: reject answered: ${run.reject.answer}\n`);
  const n = rows.toLocaleString("en");
  const target = rows > 100_000 ? 30 : 10;
  const probeRow = (verb: string, d: Decision) => [
    `other type's pending page during the ${verb}, p99 (ms; p50 ${round(d.probe.p50, 1)}, max ${round(d.probe.max, 1)}, ${d.probe.requests} requests)`,
    d.probe.p99,
    "<= 300",
    check(d.probe.p99 <= 300),
  ];
  console.log(
    table([
      [`figure (${engine})`, "value", "target", "status"],
      [
        `approve ${n} (s)`,
        run.approve.seconds,
        `<= ${target}`,
        check(run.approve.seconds <= target),
      ],
      [`reject ${n} (s)`, run.reject.seconds, `<= ${target}`, check(run.reject.seconds <= target)],
      probeRow("approval", run.approve),
      probeRow("rejection", run.reject),
      [`pending page of 20, p99 (ms, ${samples} requests)`, run.p99, "<= 80", check(run.p99 <= 80)],
      ["pending page of 20, p50 (ms)", run.p50, "", ""],
    ]),
  );
}

export async function benchApprove(): Promise<void> {
  const rows = envSize("BENCH_APPROVE_ROWS", 100_000);
  const samples = envNumber("BENCH_PAGE_SAMPLES", 200);
  // PGlite serves one query at a time: its probe waits for the decision. Runs only when asked.
  const pgliteRows = envNumber("BENCH_APPROVE_PGLITE_ROWS", Number.POSITIVE_INFINITY);
  await announceBench("approve");
  const model = { "bench.yaml": benchModelWithLayout() };
  const run = await withBenchApp("approve", model, (setup) =>
    measureDecisions(setup, rows, samples),
  );
  report("PostgreSQL", rows, samples, run);
  const figures: Record<string, number> = {
    approve_100k_s: round(run.approve.seconds),
    reject_s: round(run.reject.seconds),
    pending_page_p99_ms: round(run.p99, 1),
    probe_during_approve_p99_ms: round(run.approve.probe.p99, 1),
    probe_during_reject_p99_ms: round(run.reject.probe.p99, 1),
  };
  if (Number.isFinite(pgliteRows)) {
    const lite = await withTempDir("approve-pglite", (dir) =>
      withApp({ pgliteDir: path.join(dir, "pglite") }, model, (setup) =>
        measureDecisions(setup, pgliteRows, samples),
      ),
    );
    report("PGlite", pgliteRows, samples, lite);
    figures.pglite_approve_s = round(lite.approve.seconds);
    figures.pglite_reject_s = round(lite.reject.seconds);
  }
  const file = await writeResult("approve", figures);
  console.log(`Finished with ${loadNote()}. Figures: ${file}`);
}
