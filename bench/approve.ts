// `npm run bench -- approve`: 100,000 pending Change events of one type (seeded set-based), the p99
// of a pending page of 20 among them, then POST /api/approve with every id in one call.
import type { Kysely } from "kysely";
import { SYSTEM_COLUMNS } from "../packages/server/src/model/model.ts";
import { login } from "./support/app.ts";
import { envNumber, envSize } from "./support/env.ts";
import { BENCH_CONTEXT, BENCH_SCHEMA, BENCH_TYPE } from "./support/model.ts";
import { loadNote, round, table, writeResult } from "./support/results.ts";
import { SEED_USER, seedItems } from "./support/seed.ts";
import {
  type AppSetup,
  announceBench,
  benchModelWithLayout,
  check,
  percentile,
  postJson,
  timed,
  withBenchApp,
} from "./support/workload.ts";

interface ApproveRun {
  approveSeconds: number;
  p99: number;
  p50: number;
  answer: string;
}

/** Seeds the pending events, samples the pending page, then approves them all in one call. */
async function measureApprove(
  { app, bench }: AppSetup,
  rows: number,
  samples: number,
): Promise<ApproveRun> {
  console.log(`seeding ${rows.toLocaleString("en")} records...`);
  await seedItems(bench.database.db as unknown as Kysely<unknown>, rows);
  const hidden = SYSTEM_COLUMNS.map((c) => `'${c}'`).join(",");
  const seeded = await timed(async () => {
    await bench.raw(
      `insert into app.events (context, entity_type, entity_key_id, action, status, old_values,
         new_values, base_version, source, created_by, created_at, effective_from)
       select $1, $2, t.entity_key_id, 'Change', 'pending', to_jsonb(t) - array[${hidden}],
         (to_jsonb(t) - array[${hidden}]) || jsonb_build_object('name', 'Pending ' || t.name,
           'amount', coalesce(t.amount, 0) + 1),
         t.version, 'bench', $3, now(), now()
       from ${BENCH_SCHEMA}.${BENCH_TYPE} t order by t.entity_key_id`,
      [BENCH_CONTEXT, BENCH_TYPE, SEED_USER],
    );
    await bench.raw("vacuum analyze app.events", []);
  });
  console.log(`pending events seeded in ${seeded.seconds.toFixed(1)} s`);
  const cookie = await login(app.url);
  const page = (pageNum: number) =>
    postJson<{ data: unknown[]; querySize: number }>(
      `${app.url}/api/entity`,
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
  const p99 = percentile(times, 99);
  const p50 = percentile(times, 50);
  console.log(`pending page: p50 ${p50.toFixed(1)} ms, p99 ${p99.toFixed(1)} ms`);
  const ids = (
    (await bench.raw(
      `select event_id::int as id from app.events where status = 'pending' order by event_id`,
      [],
    )) as { id: number }[]
  ).map((r) => r.id);
  if (ids.length !== rows) throw new Error(`${ids.length} pending events, not ${rows}`);
  const approved = await timed(() =>
    postJson(
      `${app.url}/api/approve`,
      { context: BENCH_CONTEXT, entityType: BENCH_TYPE, entityEventIds: ids },
      cookie,
    ),
  );
  const [left] = (await bench.raw(
    `select count(*) filter (where status = 'pending')::int as pending,
       (select count(*)::int from ${BENCH_SCHEMA}.${BENCH_TYPE} where name like 'Pending %') as changed
     from app.events`,
    [],
  )) as { pending: number; changed: number }[];
  if (left.pending !== 0 || left.changed !== rows)
    throw new Error(`after approve: ${left.pending} pending, ${left.changed} changed`);
  return {
    approveSeconds: approved.seconds,
    p99,
    p50,
    answer: JSON.stringify(approved.value).slice(0, 300),
  };
}

export async function benchApprove(): Promise<void> {
  const rows = envSize("BENCH_APPROVE_ROWS", 100_000);
  const samples = envNumber("BENCH_PAGE_SAMPLES", 200);
  await announceBench("approve");
  const { approveSeconds, p99, p50, answer } = await withBenchApp(
    "approve",
    { "bench.yaml": benchModelWithLayout() },
    (setup) => measureApprove(setup, rows, samples),
  );
  const file = await writeResult("approve", {
    approve_100k_s: round(approveSeconds),
    pending_page_p99_ms: round(p99, 1),
  });
  console.log(`\nApprove answered: ${answer}\n`);
  console.log(
    table([
      ["figure", "value", "target", "status"],
      [
        `approve ${rows.toLocaleString("en")} (s)`,
        approveSeconds,
        "<= 10",
        check(approveSeconds <= 10),
      ],
      [`pending page of 20, p99 (ms, ${samples} requests)`, p99, "<= 80", check(p99 <= 80)],
      ["pending page of 20, p50 (ms)", p50, "", ""],
    ]),
  );
  console.log(`Finished with ${loadNote()}. Figures: ${file}`);
}
