import fs from "node:fs/promises";
import path from "node:path";
import { PGlite, types as pgliteTypes } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { Kysely, PostgresDialect } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import type { AppTables } from "./tables.ts";

export type DatabaseKind = "pglite" | "postgres";
export type Db = Kysely<AppTables>;

/** An open database: the typed query builder plus what differs between the two engines. */
export interface Database {
  db: Db;
  kind: DatabaseKind;
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
  return {
    db,
    kind: "postgres",
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
