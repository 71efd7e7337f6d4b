// The load benchmark's printed tables: per request, per run, and the cost of each action alone.
import { type ActionName, REQUESTS, type RequestKind, type RequestName } from "./load-mix.ts";
import { table } from "./results.ts";
import type { UsersRunResult } from "./virtual-users.ts";
import { percentile } from "./workload.ts";

/** One measured run of users, with the CPU its window cost. */
export interface Measured {
  result: UsersRunResult;
  /** CPU ms of the measured window: the server's process (load generator excluded), PostgreSQL, load generator. */
  cpu: { serverMs: number; postgresMs: number; driverMs: number };
  /** The server's event-loop delay in the measured window (10 ms resolution). */
  serverDelayMs: { p99: number; max: number };
}

export interface Phase extends Measured {
  label: string;
  users: number;
  loadBefore: string;
  loadAfter: string;
}

const NAMES = Object.keys(REQUESTS) as RequestName[];

export function ofKind(r: UsersRunResult, kind: RequestKind): number[] {
  return NAMES.filter((n) => REQUESTS[n].kind === kind).flatMap((n) => r.latencies[n]);
}

export const count = (r: UsersRunResult) =>
  NAMES.reduce((sum, n) => sum + r.latencies[n].length, 0);
export const rps = (r: UsersRunResult) => count(r) / r.measuredSeconds;
export const p = (values: readonly number[], q: number) =>
  values.length ? percentile(values, q) : 0;

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

export function phaseReport(phase: Phase): string {
  const r = phase.result;
  const n = Math.max(count(r), 1);
  const window = r.measuredSeconds * 1000;
  const { serverMs, postgresMs, driverMs } = phase.cpu;
  const seconds = r.perSecond.filter((s) => s > 0);
  const errors = Object.entries(r.errors)
    .sort((a, b) => b[1] - a[1])
    .map(([text, times]) => `    ${times} x ${text}`);
  return [
    `${phase.label}: ${phase.users} users, ${r.measuredSeconds.toFixed(0)} s measured (${phase.loadBefore} -> ${phase.loadAfter})`,
    requestTable(r),
    `  ${count(r)} requests, ${rps(r).toFixed(1)} req/s (best second ${Math.max(0, ...seconds)}, worst ${Math.min(...seconds)}); ` +
      `${r.errorCount} errors; sign-in p99 ${p(r.loginMs, 99).toFixed(0)} ms; ` +
      `load generator busy ${(r.driverBusy * 100).toFixed(0)}%; ` +
      `${r.savedEvents.length} changes proposed, ${r.approved} approved, ${r.conflicts} conflicts`,
    `  CPU per request: server ${(serverMs / n).toFixed(2)} ms, PostgreSQL ${(postgresMs / n).toFixed(2)} ms, ` +
      `load generator ${(driverMs / n).toFixed(2)} ms (CPUs busy: ${(serverMs / window).toFixed(2)}, ` +
      `${(postgresMs / window).toFixed(2)}, ${(driverMs / window).toFixed(2)} of 2); ` +
      `server event-loop delay p99 ${phase.serverDelayMs.p99.toFixed(0)} ms, max ${phase.serverDelayMs.max.toFixed(0)} ms`,
    ...(errors.length ? ["  errors:", ...errors] : []),
  ].join("\n");
}

/** The cost of each action done alone by one user, one request at a time. */
export function costTable(costs: readonly { action: ActionName; run: Measured }[]): string {
  return table([
    [
      "action",
      "actions",
      "requests/action",
      "p50 ms",
      "p99 ms",
      "server CPU ms/action",
      "PostgreSQL CPU ms/action",
    ],
    ...costs.map(({ action, run }) => {
      const all = Object.values(run.result.latencies).flat();
      const actions = Math.max(run.result.actionsDone, 1);
      return [
        action,
        run.result.actionsDone,
        all.length / actions,
        p(all, 50),
        p(all, 99),
        run.cpu.serverMs / actions,
        run.cpu.postgresMs / actions,
      ];
    }),
  ]);
}
