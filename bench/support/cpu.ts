// CPU time by who spent it, so a run on a shared machine still says what one request costs: the
// wall-clock latencies move with the neighbours' load, CPU time per request much less.
import fs from "node:fs";
import type { RawQuery } from "./app.ts";

/** Linux's USER_HZ: /proc counts CPU time in 1/100 s. */
const TICK_MS = 10;

/** utime + stime in ms from a /proc/<pid>/stat or /proc/thread-self/stat text. */
function statCpuMs(text: string): number {
  // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/** CPU ms the calling thread has used (10 ms resolution); 0 where /proc is missing. */
export function threadCpuMs(): number {
  try {
    return statCpuMs(fs.readFileSync("/proc/thread-self/stat", "utf8"));
  } catch {
    return 0;
  }
}

/** CPU ms of this process, every thread included. */
export function processCpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export interface CpuWatch {
  /** CPU ms since the watch began: this process, and PostgreSQL's backends of the database. */
  stop(): Promise<{ processMs: number; postgresMs: number }>;
}

/**
 * Follows the CPU of this process and of the PostgreSQL backends serving `database` (read from
 * /proc, so only for a server on this machine). Backends are sampled every 500 ms, as the pool
 * closes idle connections and a closed backend's count is gone; one closed between two samples
 * loses at most its last 500 ms. A backend that starts during the watch counts from zero.
 */
export async function watchCpu(raw: RawQuery, database: string): Promise<CpuWatch> {
  const first = new Map<number, number>();
  const last = new Map<number, number>();
  // A backend first seen after the opening sample started during the watch: all its CPU counts.
  let opened = false;
  const sample = async () => {
    const rows = (await raw(
      // The sampling connection is counted too (a few ms): it may be one the measured work uses.
      "select pid from pg_stat_activity where datname = $1",
      [database],
    )) as { pid: number }[];
    for (const { pid } of rows) {
      let ms: number;
      try {
        ms = statCpuMs(fs.readFileSync(`/proc/${pid}/stat`, "utf8"));
      } catch {
        continue; // gone, or not on this machine
      }
      if (!first.has(pid)) first.set(pid, opened ? 0 : ms);
      last.set(pid, ms);
    }
  };
  const processFrom = processCpuMs();
  await sample();
  opened = true;
  let pending = Promise.resolve();
  const timer = setInterval(() => {
    pending = pending.then(sample).catch(() => undefined);
  }, 500);
  return {
    stop: async () => {
      clearInterval(timer);
      await pending;
      await sample();
      const processMs = processCpuMs() - processFrom;
      let postgresMs = 0;
      for (const [pid, ms] of last) postgresMs += ms - (first.get(pid) ?? ms);
      return { processMs, postgresMs };
    },
  };
}
