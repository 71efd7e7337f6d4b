// `npm run bench -- load`: a mixed workload of signed-in users (browse, filter, open, history, save,
// approve, export) on 1,000,000 records: (a) 200 users with 1-3 s between actions, (b) saturation
// with 50 users and no pause, once with reads only and once with the whole mix.
import type { Kysely } from "kysely";
import { openBenchDatabase, startApp } from "./support/app.ts";
import { type CpuWatch, watchCpu } from "./support/cpu.ts";
import { benchServerUrl, createThrowawayDatabase, serverVersion } from "./support/database.ts";
import { envNumber } from "./support/env.ts";
import {
  APPROVER_MIX,
  EDITOR_MIX,
  isApprover,
  LOAD_PASSWORD,
  loadAccounts,
  loadBenchModel,
  READ_MIX,
  REQUESTS,
  type RequestKind,
  type RequestName,
} from "./support/load-mix.ts";
import { BENCH_CONTEXT, BENCH_TYPE } from "./support/model.ts";
import { loadNote, machine, round, table, writeResult } from "./support/results.ts";
import { seedItems } from "./support/seed.ts";
import {
  runVirtualUsers,
  type UsersRunOptions,
  type UsersRunResult,
} from "./support/virtual-users.ts";
import { check, createUsers, percentile, writeModelDir } from "./support/workload.ts";

interface Phase {
  label: string;
  users: number;
  result: UsersRunResult;
  /** CPU ms spent in the measured window by the server's process, PostgreSQL and the load generator. */
  cpu: { serverMs: number; postgresMs: number; driverMs: number };
  loadBefore: string;
  loadAfter: string;
}

const NAMES = Object.keys(REQUESTS) as RequestName[];

function ofKind(r: UsersRunResult, kind: RequestKind): number[] {
  return NAMES.filter((n) => REQUESTS[n].kind === kind).flatMap((n) => r.latencies[n]);
}

const count = (r: UsersRunResult) => NAMES.reduce((sum, n) => sum + r.latencies[n].length, 0);
const rps = (r: UsersRunResult) => count(r) / r.measuredSeconds;
const p = (values: readonly number[], q: number) => (values.length ? percentile(values, q) : 0);

/** One line per request, then reads and writes together. */
function requestTable(r: UsersRunResult): string {
  const line = (name: string, kind: string, values: number[]) => [
    name,
    kind,
    values.length,
    values.length / r.measuredSeconds,
    p(values, 50),
    p(values, 90),
    p(values, 99),
    values.length ? Math.max(...values) : 0,
  ];
  return table([
    ["request", "kind", "count", "req/s", "p50 ms", "p90 ms", "p99 ms", "max ms"],
    ...NAMES.filter((n) => r.latencies[n].length > 0).map((n) =>
      line(n, REQUESTS[n].kind, r.latencies[n]),
    ),
    line("all reads", "read", ofKind(r, "read")),
    line("all writes", "write", ofKind(r, "write")),
  ]);
}

function phaseReport(phase: Phase): string {
  const r = phase.result;
  const seconds = r.perSecond.filter((n) => n > 0);
  const errors = Object.entries(r.errors)
    .sort((a, b) => b[1] - a[1])
    .map(([text, n]) => `    ${n} x ${text}`);
  const n = Math.max(count(r), 1);
  const window = r.measuredSeconds * 1000;
  const { serverMs, postgresMs, driverMs } = phase.cpu;
  return [
    `${phase.label}: ${phase.users} users, ${r.measuredSeconds} s measured (${phase.loadBefore} -> ${phase.loadAfter})`,
    requestTable(r),
    `  ${count(r)} requests, ${rps(r).toFixed(1)} req/s (best second ${Math.max(0, ...seconds)}, worst ${Math.min(...seconds)}); ` +
      `${r.errorCount} errors; sign-in p99 ${p(r.loginMs, 99).toFixed(0)} ms; ` +
      `load generator busy ${(r.driverBusy * 100).toFixed(0)}%; ` +
      `${r.savedEvents.length} changes proposed, ${r.approved} approved, ${r.conflicts} conflicts`,
    `  CPU per request: server ${(serverMs / n).toFixed(2)} ms, PostgreSQL ${(postgresMs / n).toFixed(2)} ms, ` +
      `load generator ${(driverMs / n).toFixed(2)} ms (CPUs busy: ${(serverMs / window).toFixed(2)}, ` +
      `${(postgresMs / window).toFixed(2)}, ${(driverMs / window).toFixed(2)} of 2)`,
    ...(errors.length ? ["  errors:", ...errors] : []),
  ].join("\n");
}

export async function benchLoad(): Promise<void> {
  const rows = envNumber("BENCH_ROWS", 1_000_000);
  const users = Math.round(envNumber("BENCH_LOAD_USERS", 200));
  const seconds = envNumber("BENCH_LOAD_SECONDS", 60);
  const warmupSeconds = envNumber("BENCH_LOAD_WARMUP", 10);
  const thinkMs = [
    envNumber("BENCH_THINK_MIN_MS", 1000),
    envNumber("BENCH_THINK_MAX_MS", 3000),
  ] as const;
  const connections = Math.round(envNumber("BENCH_SATURATION_CONNECTIONS", 50));
  const saturationSeconds = envNumber("BENCH_SATURATION_SECONDS", 30);
  const approverEvery = Math.round(envNumber("BENCH_APPROVER_EVERY", 10));
  const seed = Math.round(envNumber("BENCH_SEED", 1));
  const serverUrl = benchServerUrl();
  const version = await serverVersion(serverUrl);
  if (!version) throw new Error(`PostgreSQL is not reachable at ${new URL(serverUrl).host}`);
  console.log(`load benchmark on ${machine()}; PostgreSQL ${version}; ${loadNote()}`);

  const accounts = loadAccounts(Math.max(users, connections), BENCH_CONTEXT, approverEvery);
  const mixed = (n: number) =>
    accounts.slice(0, n).map((a, i) => ({
      username: a.username,
      password: LOAD_PASSWORD,
      mix: isApprover(i, approverEvery) ? APPROVER_MIX : EDITOR_MIX,
    }));
  const phases: Phase[] = [];
  let consistency = "";
  const model = await writeModelDir({ "bench.yaml": loadBenchModel() });
  const database = await createThrowawayDatabase(serverUrl, "load");
  try {
    const bench = await openBenchDatabase({ url: database.url });
    try {
      const app = await startApp(bench.database, model.dir);
      try {
        console.log(`seeding ${rows.toLocaleString("en")} records...`);
        const seeded = await seedItems(bench.database.db as unknown as Kysely<unknown>, rows);
        console.log(`seeded in ${seeded.toFixed(1)} s; creating ${accounts.length} users`);
        await createUsers(bench.database, accounts);
        const base = { url: app.url, context: BENCH_CONTEXT, entityType: BENCH_TYPE, rows, seed };
        const runPhase = async (label: string, run: Omit<UsersRunOptions, keyof typeof base>) => {
          const loadBefore = loadNote();
          console.log(`${label}: ${run.users.length} users signing in (${loadBefore})...`);
          let watch: Promise<CpuWatch> | undefined;
          let used: Promise<{ processMs: number; postgresMs: number }> | undefined;
          // Each run draws its own choices: a repeat of an earlier run's edit would change nothing.
          const options = { ...base, ...run, seed: seed * 10 + phases.length };
          const result = await runVirtualUsers(options, (edge) => {
            if (edge === "start") watch = watchCpu(bench.raw, database.name);
            else used = watch?.then((w) => w.stop());
          });
          const { processMs, postgresMs } = (await used) ?? { processMs: 0, postgresMs: 0 };
          const cpu = {
            serverMs: processMs - result.driverCpuMs,
            postgresMs,
            driverMs: result.driverCpuMs,
          };
          const loadAfter = loadNote();
          const phase = { label, users: run.users.length, result, cpu, loadBefore, loadAfter };
          phases.push(phase);
          console.log(`${phaseReport(phase)}\n`);
        };
        await runPhase(`(a) ${users} users, ${thinkMs[0]}-${thinkMs[1]} ms between actions`, {
          users: mixed(users),
          warmupSeconds,
          seconds,
          thinkMs,
        });
        const saturation = {
          warmupSeconds: 5,
          seconds: saturationSeconds,
          thinkMs: [0, 0] as const,
        };
        await runPhase(`(b) saturation, ${connections} users without pause, reads only`, {
          ...saturation,
          users: mixed(connections).map((u) => ({ ...u, mix: READ_MIX })),
        });
        await runPhase(`(b) saturation, ${connections} users without pause, whole mix`, {
          ...saturation,
          users: mixed(connections),
        });
        consistency = await checkConsistency(bench.raw, phases);
      } finally {
        await app.close();
      }
    } finally {
      await bench.close();
    }
  } finally {
    await database.drop();
    await model.remove();
  }

  const [browsing, reads, whole] = phases.map((ph) => ph.result);
  const readP99 = p(ofKind(browsing, "read"), 99);
  const writeP99 = p(ofKind(browsing, "write"), 99);
  const saturationErrors = reads.errorCount + whole.errorCount;
  const file = await writeResult("load", {
    errors: browsing.errorCount,
    requests: count(browsing),
    read_p99_ms: round(readP99, 1),
    write_p99_ms: round(writeP99, 1),
    rps: round(rps(reads), 1),
    saturation_errors: saturationErrors,
    mix_rps: round(rps(whole), 1),
  });
  console.log(`Finished with ${loadNote()}. ${consistency}\n`);
  for (const phase of phases) console.log(`${phaseReport(phase)}\n`);
  console.log(
    table([
      ["target", "value", "status"],
      [
        `(a) errors (${count(browsing)} requests)`,
        browsing.errorCount,
        check(browsing.errorCount === 0),
      ],
      ["(a) reads p99 <= 100 ms", readP99, check(readP99 <= 100)],
      ["(a) writes p99 <= 250 ms", writeP99, check(writeP99 <= 250)],
      [`(b) reads at ${connections} connections, req/s`, rps(reads), ""],
      [`(b) whole mix at ${connections} connections, req/s`, rps(whole), ""],
      ["(b) saturation errors", saturationErrors, check(saturationErrors === 0)],
    ]),
  );
  console.log(`Figures: ${file}`);
}

/**
 * The database must hold what the users were told: one pending or approved web event per distinct
 * event a save answered, and as many approvals by the load users as /api/approve counted.
 */
async function checkConsistency(
  raw: (text: string, params: readonly unknown[]) => Promise<unknown[]>,
  phases: readonly Phase[],
): Promise<string> {
  const saved = new Set(phases.flatMap((ph) => ph.result.savedEvents)).size;
  const approved = phases.reduce((sum, ph) => sum + ph.result.approved, 0);
  const [row] = (await raw(
    `select count(*) filter (where source = 'web')::int as saved,
       count(*) filter (where status = 'approved' and decided_by like 'load%' and source = 'web')::int as approved
     from app.events where context = $1 and entity_type = $2 and created_by like 'load%'`,
    [BENCH_CONTEXT, BENCH_TYPE],
  )) as { saved: number; approved: number }[];
  if (row.saved !== saved || row.approved !== approved)
    throw new Error(
      `the database holds ${row.saved} web changes and ${row.approved} approvals; the users saw ${saved} and ${approved}`,
    );
  return `Database check: ${saved} proposed changes and ${approved} approvals, as answered.`;
}
