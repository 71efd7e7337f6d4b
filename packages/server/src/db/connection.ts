import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect, sql } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { AppTables } from "./tables.ts";

export type DatabaseKind = "pglite" | "postgres";
export type Db = Kysely<AppTables>;

/** A table, and the columns each row of a COPY gives in order. */
export interface CopyTarget {
  schema: string;
  table: string;
  columns: readonly string[];
}

/**
 * Loads rows into a table with COPY, on the connection `db` runs on (so inside its transaction,
 * if it is one). `data` holds the rows in COPY's text format.
 */
export type CopyRows = (db: Db, target: CopyTarget, data: string) => Promise<void>;

function copyStatement({ schema, table, columns }: CopyTarget, source: string): string {
  const names = columns.map((c) => pg.escapeIdentifier(c)).join(", ");
  return `copy ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)} (${names}) from ${source}`;
}

export interface Database {
  db: Db;
  kind: DatabaseKind;
  copyRows: CopyRows;
  /** Subscribes to a NOTIFY channel (sent by any server instance); answers the unsubscribe function. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; undefined opens PGlite. */
  databaseUrl?: string;
  /** PGlite data folder; "memory://" for a throwaway in-memory database. */
  pgliteDir?: string;
  poolSize?: number;
}

// Both engines answer the same JS values: int8 and numeric as numbers, dates as 'YYYY-MM-DD' text.
const INT8 = 20;
const NUMERIC = 1700;
const DATE = 1082;
const toNumber = (v: string) => Number(v);
const asText = (v: string) => v;

/** Opens PostgreSQL when a URL is given, else the embedded PGlite database. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options.poolSize ?? 10);
  return openPglite(options.pgliteDir ?? "memory://");
}

function openPostgres(url: string, max: number): Database {
  const parsers: Record<number, (v: string) => unknown> = {
    [INT8]: toNumber,
    [NUMERIC]: toNumber,
    [DATE]: asText,
  };
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        parsers[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle pooled connection can die (server restart, dropped database); without a handler that
  // error would crash the process. The pool replaces the connection at the next query.
  pool.on("error", () => undefined);
  const db = new Kysely<AppTables>({ dialect: new PostgresDialect({ pool }) });
  const listeners = new Set<pg.Client>();
  // The pool's connections by server process id: a transaction's connection is found by asking it.
  const byProcess = new Map<number, pg.PoolClient>();
  const processOf = (client: pg.PoolClient) =>
    (client as unknown as { processID: number }).processID;
  pool.on("connect", (client) => byProcess.set(processOf(client), client));
  pool.on("remove", (client) => byProcess.delete(processOf(client as pg.PoolClient)));
  const copy = (client: pg.PoolClient, target: CopyTarget, data: string) =>
    pipeline(Readable.from([data]), client.query(copyFrom(copyStatement(target, "stdin"))));
  return {
    db,
    kind: "postgres",
    copyRows: async (on, target, data) => {
      if (!on.isTransaction) {
        const client = await pool.connect();
        try {
          await copy(client, target, data);
        } finally {
          client.release();
        }
        return;
      }
      const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(on);
      const client = byProcess.get(rows[0].pid);
      if (!client) throw new Error("The transaction's connection is not one of the pool's");
      await copy(client, target, data);
    },
    // LISTEN needs a connection of its own for as long as the subscription lasts.
    listen: async (channel, handler) => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      client.on("notification", (n) => {
        if (n.channel === channel) handler(n.payload ?? "");
      });
      client.on("error", () => undefined);
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
      listeners.add(client);
      return async () => {
        listeners.delete(client);
        await client.end().catch(() => undefined);
      };
    },
    close: async () => {
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      await db.destroy();
    },
  };
}

async function openPglite(dir: string): Promise<Database> {
  if (!dir.startsWith("memory://")) await fs.mkdir(path.dirname(dir), { recursive: true });
  const client = await PGlite.create(dir, {
    extensions: { pg_trgm },
    parsers: {
      [pgliteTypes.INT8]: toNumber,
      [pgliteTypes.NUMERIC]: toNumber,
      [pgliteTypes.DATE]: asText,
    },
  });
  const db = new Kysely<AppTables>({ dialect: new PGliteDialect(client) });
  return {
    db,
    kind: "pglite",
    // PGlite has one session: the statement runs in the caller's transaction, if there is one.
    copyRows: async (_on, target, data) => {
      await client.query(copyStatement(target, "'/dev/blob'"), [], { blob: new Blob([data]) });
    },
    listen: async (channel, handler) => {
      const unlisten = await client.listen(channel, handler);
      return () => unlisten();
    },
    close: async () => {
      // CHECKPOINT flushes the WAL so the next start does not replay it.
      if (!client.closed) await client.exec("checkpoint");
      await db.destroy();
    },
  };
}
