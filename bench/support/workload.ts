// Helpers shared by the benchmarks: the app on a throwaway database, users, requests, timings;
// builds on app.ts, database.ts and model.ts.
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import v8 from "node:v8";
import vm from "node:vm";
import { grantRoles } from "../../packages/server/src/admin/roles.repository.ts";
import { insertUser } from "../../packages/server/src/admin/users.repository.ts";
import { hashPassword } from "../../packages/server/src/auth/password.ts";
import type { Database } from "../../packages/server/src/db/connection.ts";
import { serverVersion } from "../../packages/server/src/testing/postgres-server.ts";
import {
  ADMIN_USERNAME,
  type BenchDatabase,
  openBenchDatabase,
  type RunningApp,
  startApp,
} from "./app.ts";
import { benchServerUrl, type ThrowawayDatabase, withThrowawayDatabase } from "./database.ts";
import { BENCH_MODEL_YAML, BENCH_TYPE } from "./model.ts";
import { loadNote, machine } from "./results.ts";

export const ITEM_LAYOUT = "items";
export const ITEM_SHEET = "Items";
/** The bench type's attributes with the headers of the upload layout, in file order. */
export const ITEM_COLUMNS = [
  ["code", "Code"],
  ["name", "Name"],
  ["category", "Category"],
  ["region", "Region"],
  ["amount", "Amount"],
  ["quantity", "Quantity"],
  ["active", "Active"],
  ["valid_from", "Valid from"],
  ["score", "Score"],
  ["description", "Description"],
] as const;

/** The bench model plus a file layout for `item` (all 10 columns) and the approve right. */
export function benchModelWithLayout(): string {
  const columns = ITEM_COLUMNS.map(
    ([attribute, header]) => `      - { header: "${header}", attribute: ${attribute} }`,
  ).join("\n");
  const layout = `fileLayouts:
  - name: ${ITEM_LAYOUT}
    uiName: Items
    entityType: ${BENCH_TYPE}
    sheet: ${ITEM_SHEET}
    columns:
${columns}
    deleteMissing: false
    approveEverything: true
`;
  return BENCH_MODEL_YAML.replace(/^roles:/m, `${layout}roles:`).replace(
    "[read, create, edit, delete]",
    "[read, create, edit, delete, approve]",
  );
}

/** Checks that the bench server answers, then prints the benchmark's first line. */
export async function announceBench(name: string): Promise<void> {
  const serverUrl = benchServerUrl();
  const version = await serverVersion(serverUrl);
  if (!version)
    throw new Error(
      `PostgreSQL is not reachable at ${new URL(serverUrl).host}; set BENCH_DATABASE_URL`,
    );
  console.log(`${name} benchmark on ${machine()}; PostgreSQL ${version}; ${loadNote()}`);
}

/** Runs `fn` with a new temporary folder, removed afterwards (also when `fn` fails). */
export async function withTempDir<T>(label: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `ledgerline-bench-${label}-`));
  try {
    return await fn(dir);
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** A MODEL_DIR, or model files (name to text) written to a temporary one. */
export type BenchModel = string | Record<string, string>;

async function withModelDir<T>(model: BenchModel, fn: (dir: string) => Promise<T>): Promise<T> {
  if (typeof model === "string") return fn(model);
  return withTempDir("model", async (dir) => {
    for (const [name, text] of Object.entries(model))
      await fs.writeFile(path.join(dir, name), text);
    return fn(dir);
  });
}

export interface AppSetup {
  app: RunningApp;
  bench: BenchDatabase;
}

/**
 * Runs `fn` against the real app on the database of `target` (PostgreSQL or PGlite) with `model`;
 * the app and the database are closed (and a written model removed) afterwards, also when `fn` fails.
 */
export async function withApp<T>(
  target: { url: string } | { pgliteDir: string },
  model: BenchModel,
  fn: (setup: AppSetup) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  return withModelDir(model, async (modelDir) => {
    const bench = await openBenchDatabase(target);
    try {
      const app = await startApp(bench.database, modelDir, env);
      try {
        return await fn({ app, bench });
      } finally {
        await app.close();
      }
    } finally {
      await bench.close();
    }
  });
}

export interface BenchSetup extends AppSetup {
  database: ThrowawayDatabase;
}

/**
 * Runs `fn` against the real app on a throwaway database of the bench server, with `model`;
 * everything is removed afterwards, also when `fn` fails.
 */
export function withBenchApp<T>(
  label: string,
  model: BenchModel,
  fn: (setup: BenchSetup) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  return withThrowawayDatabase(label, (database) =>
    withApp({ url: database.url }, model, (setup) => fn({ ...setup, database }), env),
  );
}

export const SECOND_USER = "bench2";
export const SECOND_PASSWORD = "bench-second-password-1";

/** A user the benchmark creates, with its roles (context and role name). */
export interface BenchUser {
  username: string;
  password: string;
  roles: readonly { context: string; role: string }[];
}

/** Creates the users and grants their roles as the first admin; one argon2 hash per distinct password. */
export async function createUsers(database: Database, users: readonly BenchUser[]): Promise<void> {
  const hashes = new Map<string, Promise<string>>();
  for (const u of users) {
    if (!hashes.has(u.password)) hashes.set(u.password, hashPassword(u.password));
    const user = await insertUser(database.db, {
      username: u.username,
      name: `Bench user ${u.username}`,
      email: `${u.username}@example.com`,
      passwordHash: await (hashes.get(u.password) as Promise<string>),
    });
    await grantRoles(
      database.db,
      u.roles.map((r) => ({ userId: user.user_id, ...r })),
      ADMIN_USERNAME,
    );
  }
}

/** A second user with the given roles (to approve what another user proposed). */
export async function createSecondUser(
  database: Database,
  roles: { context: string; role: string }[],
): Promise<void> {
  await createUsers(database, [{ username: SECOND_USER, password: SECOND_PASSWORD, roles }]);
}

/** POSTs JSON and answers the parsed JSON; fails on anything but 200. */
export async function postJson<T = Record<string, unknown>>(
  url: string,
  body: unknown,
  cookie: string,
): Promise<T> {
  const res = await fetch(url, {
    method: "POST",
    headers: {
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      cookie,
      "sec-fetch-site": "same-origin",
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(3_600_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${text.slice(0, 2000)}`);
  return JSON.parse(text) as T;
}

/** Seconds taken by fn, and its answer. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ seconds: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { seconds: (performance.now() - started) / 1000, value };
}

/** Samples the event loop's delay (10 ms resolution); stop() answers the longest stall in ms. */
export function watchEventLoop(): { stop(): number } {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  return {
    stop: () => {
      histogram.disable();
      return histogram.max / 1e6;
    },
  };
}

/** A full collection, when the process allows one (it makes the RSS baseline steady). */
function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as (() => void) | undefined)?.();
}

/** What process.memoryUsage() reports, in bytes: each figure on its own. */
export type MemoryFigures = Pick<
  NodeJS.MemoryUsage,
  "rss" | "heapUsed" | "heapTotal" | "external" | "arrayBuffers"
>;
const MEMORY_FIGURES = ["rss", "heapUsed", "heapTotal", "external", "arrayBuffers"] as const;

function memoryFigures(): MemoryFigures {
  const usage = process.memoryUsage();
  return Object.fromEntries(MEMORY_FIGURES.map((k) => [k, usage[k]])) as MemoryFigures;
}

/**
 * Collects garbage, then samples this process's memory every 10 ms: `before` is each figure at the
 * start, stop() ends the sampling and answers each figure's own peak.
 */
export function watchMemory(): { before: MemoryFigures; stop(): MemoryFigures } {
  collectGarbage();
  const before = memoryFigures();
  const peak = { ...before };
  const sample = () => {
    const now = memoryFigures();
    for (const k of MEMORY_FIGURES) peak[k] = Math.max(peak[k], now[k]);
  };
  const sampler = setInterval(sample, 10);
  return {
    before,
    stop: () => {
      clearInterval(sampler);
      sample();
      return peak;
    },
  };
}

/** watchMemory's RSS alone: `before` and the peak stop() answers, in bytes. */
export function watchRss(): { before: number; stop(): number } {
  const memory = watchMemory();
  return { before: memory.before.rss, stop: () => memory.stop().rss };
}

/** The pth percentile (0-100) of the values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const check = (ok: boolean) => (ok ? "met" : "MISSED");
