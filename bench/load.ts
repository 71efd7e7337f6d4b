// `npm run bench -- load`: a mixed workload of signed-in users (browse, filter, open, history, save,
// approve, export) on 1,000,000 records: (a) 200 users with 1-3 s between actions, (b) saturation
// with 50 users and no pause, once with reads only and once with the whole mix, (c) what each
// action costs alone.
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Kysely } from "kysely";
import type { RawQuery } from "./support/app.ts";
import { type CpuWatch, watchCpu } from "./support/cpu.ts";
import { envNumber, envSize } from "./support/env.ts";
import {
  ACTIONS,
  APPROVER_MIX,
  EDITOR_MIX,
  isApprover,
  LOAD_PASSWORD,
  loadAccounts,
  loadBenchModel,
  READ_MIX,
  REQUESTS,
} from "./support/load-mix.ts";
import {
  costTable,
  count,
  type Measured,
  ofKind,
  type Phase,
  p,
  phaseReport,
  rps,
} from "./support/load-report.ts";
import { BENCH_CONTEXT, BENCH_TYPE } from "./support/model.ts";
import { loadNote, round, table, writeResult } from "./support/results.ts";
import { seedItems } from "./support/seed.ts";
import { runVirtualUsers, type UsersRunOptions } from "./support/virtual-users.ts";
import {
  announceBench,
  type BenchSetup,
  check,
  createUsers,
  withBenchApp,
} from "./support/workload.ts";

/** Actions of the cost table per action (exports fewer: 30 a minute per user is the limit). */
const COST_ACTIONS = 300;
const COST_EXPORTS = 20;
/** The approver's actions; the others are a steward's. */
const APPROVER_ACTIONS = new Set(["summary", "review"]);

function settings() {
  return {
    rows: envSize("BENCH_ROWS", 1_000_000),
    users: Math.round(envNumber("BENCH_LOAD_USERS", 200)),
    seconds: envNumber("BENCH_LOAD_SECONDS", 60),
    warmupSeconds: envNumber("BENCH_LOAD_WARMUP", 10),
    thinkMs: [
      envNumber("BENCH_THINK_MIN_MS", 1000),
      envNumber("BENCH_THINK_MAX_MS", 3000),
    ] as const,
    connections: Math.round(envNumber("BENCH_SATURATION_CONNECTIONS", 50)),
    saturationSeconds: envNumber("BENCH_SATURATION_SECONDS", 30),
    approverEvery: Math.max(2, Math.round(envNumber("BENCH_APPROVER_EVERY", 10))),
    seed: Math.round(envNumber("BENCH_SEED", 1)),
  };
}

/** Runs users and follows the CPU of the server, PostgreSQL and the load generator in the measured window. */
async function measure(
  raw: RawQuery,
  databaseName: string,
  options: UsersRunOptions,
): Promise<Measured> {
  let watch: Promise<CpuWatch> | undefined;
  let used: Promise<{ processMs: number; postgresMs: number }> | undefined;
  // The server's thread is this one: how late its timers fire says how long requests queue for it.
  const delay = monitorEventLoopDelay({ resolution: 10 });
  const result = await runVirtualUsers(options, (edge) => {
    if (edge === "start") {
      watch = watchCpu(raw, databaseName);
      delay.enable();
    } else {
      delay.disable();
      used = watch?.then((w) => w.stop());
    }
  });
  const { processMs, postgresMs } = (await used) ?? { processMs: 0, postgresMs: 0 };
  const driverMs = result.driverCpuMs;
  return {
    result,
    cpu: { serverMs: processMs - driverMs, postgresMs, driverMs },
    serverDelayMs: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 },
  };
}

type Settings = ReturnType<typeof settings>;
type Cost = Parameters<typeof costTable>[0][number];

/** The accounts and who plays what: the runs share the first ones, the cost table has its own. */
function cast(s: Settings) {
  const shared = Math.max(s.users, s.connections);
  // The cost table's steward and approver come after the shared ones: no earlier run has used up
  // their export limit.
  const accounts = loadAccounts(shared + s.approverEvery, BENCH_CONTEXT, s.approverEvery);
  const userOf = (i: number, mix = isApprover(i, s.approverEvery) ? APPROVER_MIX : EDITOR_MIX) => ({
    username: accounts[i].username,
    password: LOAD_PASSWORD,
    mix,
  });
  const extra = accounts.slice(shared).map((_, k) => shared + k);
  return {
    accounts,
    userOf,
    mixed: (n: number) => accounts.slice(0, n).map((_, i) => userOf(i)),
    costApprover: extra.find((i) => isApprover(i, s.approverEvery)) as number,
    costSteward: extra.find((i) => !isApprover(i, s.approverEvery)) as number,
  };
}

/** Seeds, creates the users, then (a), (b) and (c). */
async function runAll({ app, bench, database }: BenchSetup, s: Settings) {
  const who = cast(s);
  console.log(`seeding ${s.rows.toLocaleString("en")} records...`);
  const seeded = await seedItems(bench.database.db as unknown as Kysely<unknown>, s.rows);
  console.log(`seeded in ${seeded.toFixed(1)} s; creating ${who.accounts.length} users`);
  await createUsers(bench.database, who.accounts);
  const base = { url: app.url, context: BENCH_CONTEXT, entityType: BENCH_TYPE, rows: s.rows };
  const run = (seed: number, options: Omit<UsersRunOptions, keyof typeof base | "seed">) =>
    // Each run draws its own choices: a repeat of an earlier run's edit would change nothing.
    measure(bench.raw, database.name, { ...base, ...options, seed: s.seed * 100 + seed });
  const phases: Phase[] = [];
  const phase = async (label: string, options: Parameters<typeof run>[1]) => {
    const loadBefore = loadNote();
    console.log(`${label}: ${options.users.length} users signing in (${loadBefore})...`);
    const measured = await run(phases.length, options);
    const users = options.users.length;
    phases.push({ label, users, ...measured, loadBefore, loadAfter: loadNote() });
    console.log(`${phaseReport(phases[phases.length - 1])}\n`);
  };

  await phase(`(a) ${s.users} users, ${s.thinkMs[0]}-${s.thinkMs[1]} ms between actions`, {
    users: who.mixed(s.users),
    warmupSeconds: s.warmupSeconds,
    seconds: s.seconds,
    thinkMs: s.thinkMs,
  });
  const flat = { warmupSeconds: 5, seconds: s.saturationSeconds, thinkMs: [0, 0] as const };
  await phase(`(b) saturation, ${s.connections} users without pause, reads only`, {
    ...flat,
    users: who.mixed(s.connections).map((u) => ({ ...u, mix: READ_MIX })),
  });
  await phase(`(b) saturation, ${s.connections} users without pause, whole mix`, {
    ...flat,
    users: who.mixed(s.connections),
  });

  console.log(`(c) each action alone, one user, one request at a time (${loadNote()})...`);
  const costs: Cost[] = [];
  for (const action of ACTIONS) {
    const user = APPROVER_ACTIONS.has(action) ? who.costApprover : who.costSteward;
    const measured = await run(10 + costs.length, {
      users: [who.userOf(user, { [action]: 1 })],
      warmupSeconds: 0,
      seconds: 60,
      thinkMs: [0, 0],
      maxActions: action === "export" ? COST_EXPORTS : COST_ACTIONS,
    });
    costs.push({ action, run: measured });
    if (measured.result.errorCount > 0)
      throw new Error(`${action} alone: ${JSON.stringify(measured.result.errors)}`);
  }
  const consistency = await checkConsistency(bench.raw, [...phases, ...costs.map((c) => c.run)]);
  return { phases, costs, consistency };
}

export async function benchLoad(): Promise<void> {
  const s = settings();
  await announceBench("load");
  console.log(
    `Requests:\n${Object.entries(REQUESTS)
      .map(([name, r]) => `  ${name} (${r.kind}): ${r.what}`)
      .join("\n")}`,
  );
  const done = await withBenchApp("load", { "bench.yaml": loadBenchModel() }, (setup) =>
    runAll(setup, s),
  );
  await report(done.phases, done.costs, done.consistency, s.connections);
}

async function report(
  phases: readonly Phase[],
  costs: readonly Cost[],
  consistency: string,
  connections: number,
): Promise<void> {
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
  console.log(`(c) each action alone, one user, one request at a time\n${costTable(costs)}\n`);
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
async function checkConsistency(raw: RawQuery, runs: readonly Measured[]): Promise<string> {
  const saved = new Set(runs.flatMap((r) => r.result.savedEvents)).size;
  const approved = runs.reduce((sum, r) => sum + r.result.approved, 0);
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
