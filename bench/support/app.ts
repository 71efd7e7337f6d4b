import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CompiledQuery } from "kysely";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { buildApp } from "../../packages/server/src/app.ts";
import { loadConfig } from "../../packages/server/src/config.ts";
import {
  type CopyTarget,
  copyStatement,
  type Database,
  openDatabase,
} from "../../packages/server/src/db/connection.ts";
import { type CopyValue, copyData, copyText } from "../../packages/server/src/db/copy-text.ts";
import type { App } from "../../packages/server/src/http/types.ts";
import { type Prepared, prepare } from "../../packages/server/src/prepare.ts";

export const BENCH_HOST = "127.0.0.1";
export const ADMIN_USERNAME = "admin";
export const ADMIN_PASSWORD = "bench-admin-password-1";
/** The app's default pool size (db/connection.ts); the raw baseline gets the same. */
export const POOL_SIZE = 10;

/** Runs one SQL text with parameters outside the app: the raw baseline's only database call. */
export type RawQuery = (text: string, params: readonly unknown[]) => Promise<unknown[]>;

/** Loads rows into a table with COPY outside the app: the raw baseline's load. */
export type RawCopy = (
  target: CopyTarget,
  rows: readonly (readonly CopyValue[])[],
) => Promise<void>;

export interface BenchDatabase {
  kind: "postgres" | "pglite";
  database: Database;
  raw: RawQuery;
  copy: RawCopy;
  close(): Promise<void>;
}

const toNumber = (v: string) => Number(v);
const asText = (v: string) => v;

/** Queries and COPY on a pg pool of its own, beside the app: what the raw baseline uses. */
export function openRawPostgres(url: string): Pick<BenchDatabase, "raw" | "copy" | "close"> {
  const pool = new pg.Pool({
    connectionString: url,
    max: POOL_SIZE,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === 20 || oid === 1700
          ? toNumber
          : oid === 1082
            ? asText
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  pool.on("error", () => undefined); // an idle connection dropped by the server is not a failure here
  return {
    raw: async (text, params) => (await pool.query(text, params as unknown[])).rows,
    copy: async (target, rows) => {
      const client = await pool.connect();
      try {
        const copy = client.query(copyFrom(copyStatement(target, "stdin")));
        await pipeline(Readable.from([copyText(rows)]), copy);
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/** The app's database (as the server opens it) and a raw query function beside it. */
export async function openBenchDatabase(
  target: { url: string } | { pgliteDir: string },
): Promise<BenchDatabase> {
  if ("url" in target) {
    const database = await openDatabase({ databaseUrl: target.url, poolSize: POOL_SIZE });
    const raw = openRawPostgres(target.url);
    return {
      kind: "postgres",
      database,
      raw: raw.raw,
      copy: raw.copy,
      close: async () => {
        await raw.close();
        await database.close();
      },
    };
  }
  // PGlite serves one client per process, so the baseline shares the app's: a precompiled statement
  // handed straight to the driver through Kysely's executeQuery (no query builder, no mapping).
  const database = await openDatabase({ pgliteDir: target.pgliteDir });
  return {
    kind: "pglite",
    database,
    raw: async (text, params) =>
      (await database.db.executeQuery(CompiledQuery.raw(text, [...params]))).rows,
    copy: (target, rows) => database.copyRows(database.db, target, copyData(rows)),
    close: () => database.close(),
  };
}

export interface RunningApp {
  app: App;
  prepared: Prepared;
  /** http://127.0.0.1:<port> */
  url: string;
  /** The app's DATA_DIR, removed by close(). */
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Prepares the database exactly as at start (migrations, model sync, first admin); `env` adds or
 * overrides settings (e.g. CONNECTIONS_DIR, WIKI_TARGET).
 */
export async function prepareBench(
  database: Database,
  modelDir: string,
  env: Record<string, string> = {},
) {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-bench-data-"));
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      MODEL_DIR: modelDir,
      ADMIN_USERNAME,
      ADMIN_PASSWORD,
      // Gives the first admin every role of the bench model; the bench model has no seed files.
      DEMO: "1",
      LOG_LEVEL: "silent",
      HOST: BENCH_HOST,
      WEB_DIST: path.join(dataDir, "no-web-build"),
      ...env,
    },
    [],
  );
  const prepared = await prepare(database, config);
  return { config, prepared, dataDir };
}

/** The real app, built as main.ts builds it (without request logs), listening on 127.0.0.1. */
export async function startApp(
  database: Database,
  modelDir: string,
  env: Record<string, string> = {},
): Promise<RunningApp> {
  const { config, prepared, dataDir } = await prepareBench(database, modelDir, env);
  const app = await buildApp({ config, database, model: prepared.model }, { logger: false });
  await app.listen({ host: BENCH_HOST, port: 0 });
  const address = app.server.address();
  if (!address || typeof address === "string") throw new Error("no TCP address");
  return {
    app,
    prepared,
    url: `http://${BENCH_HOST}:${address.port}`,
    dataDir,
    close: async () => {
      await app.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through /auth/login (as the first admin unless told) and answers the Cookie header value. */
export async function login(
  baseUrl: string,
  username = ADMIN_USERNAME,
  password = ADMIN_PASSWORD,
): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ username, password }).toString(),
  });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .find((c) => c.startsWith("ledgerline_session="));
  if (!cookie) throw new Error("login answered no session cookie");
  return cookie;
}
