import { randomBytes } from "node:crypto";
import pg from "pg";
import { onInterrupt } from "./cleanup.ts";

export const DEFAULT_BENCH_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres";

const LOCAL_HOSTS = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** The server URL of BENCH_DATABASE_URL; refuses anything but this machine. */
export function benchServerUrl(): string {
  const url = process.env.BENCH_DATABASE_URL ?? DEFAULT_BENCH_DATABASE_URL;
  const host = new URL(url).hostname;
  if (!LOCAL_HOSTS.has(host))
    throw new Error(`BENCH_DATABASE_URL must point at this machine (127.0.0.1), not '${host}'`);
  return url;
}

export interface ThrowawayDatabase {
  /** Connection string of the new database. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new, empty database on the bench server, dropped again by drop(). */
export async function createThrowawayDatabase(
  serverUrl: string,
  label: string,
  template?: string,
): Promise<ThrowawayDatabase> {
  const name = `ledgerline_bench_${label}_${process.pid}_${randomBytes(3).toString("hex")}`;
  await adminQuery(
    serverUrl,
    `create database ${name}${template ? ` template ${pg.escapeIdentifier(template)}` : ""}`,
  );
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  const drop = async () => {
    if (dropped) return;
    dropped = true;
    forget();
    // Connections closed a moment ago may still be leaving: wait for them rather than kill them
    // (a killed idle connection is an unhandled error in its pool), then force as a last resort.
    for (let attempt = 0; attempt < 30; attempt++) {
      try {
        await adminQuery(serverUrl, `drop database if exists ${name}`);
        return;
      } catch (error) {
        if ((error as { code?: string }).code !== "55006") throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
  };
  const forget = onInterrupt(drop);
  return { url: url.toString(), name, drop };
}

/**
 * Runs `fn` with a new database on the bench server, empty or a copy of `template`, dropped again
 * afterwards (also when `fn` fails).
 */
export async function withThrowawayDatabase<T>(
  label: string,
  fn: (database: ThrowawayDatabase) => Promise<T>,
  template?: string,
): Promise<T> {
  const database = await createThrowawayDatabase(benchServerUrl(), label, template);
  try {
    return await fn(database);
  } finally {
    await database.drop();
  }
}
