import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { Kysely, type KyselyConfig, PostgresDialect } from "kysely";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import type { CopyData } from "./copy-text.ts";
import { CallbackQueryClient } from "./pg-callback-queries.ts";
import { copyQuery, PgliteDialect, PgliteSession } from "./pglite-dialect.ts";
import { lockDataFolder } from "./pglite-folder-lock.ts";
import { type PgliteThread, type QuickStart, startPgliteThread } from "./pglite-thread.ts";
import { DEFAULT_STATEMENT_CACHE, type StatementCacheLimits } from "./statement-cache.ts";
import type { AppTables } from "./tables.ts";
import { VALUE_PARSERS } from "./value-parsers.ts";

export type DatabaseKind = "pglite" | "postgres";
export type Db = Kysely<AppTables>;

/** A table, and the columns each row of a COPY gives in order. */
export interface CopyTarget {
  schema: string;
  table: string;
  columns: readonly string[];
}

/**
 * Loads rows (made by copyData) into a table with COPY, on the connection `db` runs on: the pool,
 * or a transaction opened with `Database.transaction`. Fails unless every row was written.
 */
export type CopyRows = (db: Db, target: CopyTarget, data: CopyData) => Promise<void>;

function checkCopied(written: number | undefined, sent: number): void {
  if (written !== sent) throw new Error(`COPY wrote ${written ?? "no"} of ${sent} rows`);
}

/** `copy schema.table (columns) from source`, names quoted. */
export function copyStatement({ schema, table, columns }: CopyTarget, source: string): string {
  const names = columns.map((c) => pg.escapeIdentifier(c)).join(", ");
  return `copy ${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)} (${names}) from ${source}`;
}

/** What a database's connections are doing now (metrics/). */
export interface ConnectionStats {
  /** PostgreSQL: pooled connections running a statement or transaction; PGlite: 1 while busy. */
  inUse: number;
  /** PostgreSQL: pooled connections idle; PGlite: 0 or 1. */
  idle: number;
  /** Calls waiting for a connection (PostgreSQL) or queued for the embedded session (PGlite). */
  waiting: number;
}

/** A statement as it ended: its text, its time (Kysely's own timing) and whether it failed. */
export interface StatementEnd {
  sql: string;
  seconds: number;
  failed: boolean;
}

/** Who hears of each statement's end (metrics, traces; nobody until they are turned on). */
export interface StatementListeners {
  listeners: ((statement: StatementEnd) => void)[];
}

const timedBy =
  (statements: StatementListeners): KyselyConfig["log"] =>
  (event) => {
    if (statements.listeners.length === 0) return;
    const end = {
      sql: event.query.sql,
      seconds: event.queryDurationMillis / 1000,
      failed: event.level === "error",
    };
    for (const listener of statements.listeners) listener(end);
  };

export interface Database {
  db: Db;
  /**
   * The same database through connections whose statements stop after `statementTimeoutMs` (SQLSTATE
   * 57014): for the reads a caller's request shapes (lists, counts, exports' chunks, comparisons),
   * so a costly filter cannot hold a connection and a core for long. Uploads, imports, decisions and
   * index builds run on `db`, unlimited. On PGlite it is `db`: the embedded database ignores
   * statement_timeout (its WebAssembly has no timer to stop a statement).
   */
  reads: Db;
  /**
   * Runs `work` on connections like those of `reads` whose statements are planned for any parameter
   * values (PostgreSQL's plan_cache_mode force_generic_plan), so a statement they keep prepared is
   * planned once, and never with parallel workers: for a statement that takes longer to plan than
   * to run, whose plan fits every value, and which many callers run at once (the search box's).
   * With DATABASE_STATEMENT_CACHE=0 `work` runs on `reads` as it is (its statements are never
   * kept prepared). On PGlite its statements are kept prepared on the one session
   * (db/pglite-prepared.ts).
   */
  genericReads<T>(work: (reads: Db) => Promise<T>): Promise<T>;
  kind: DatabaseKind;
  copyRows: CopyRows;
  /** Runs `work` in a transaction in which `copyRows` may be used. */
  transaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /** Subscribes to a NOTIFY channel (sent by any server instance); answers the unsubscribe function. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  /** The connections now, for metrics. */
  connections(): ConnectionStats;
  /** Who hears of each statement's end (metrics, traces). */
  statements: StatementListeners;
  /** The embedded database's data folder; undefined on PostgreSQL and for one held in memory. */
  folder?: string;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection string; undefined opens PGlite. */
  databaseUrl?: string;
  /** PGlite data folder; "memory://" for a throwaway in-memory database. */
  pgliteDir?: string;
  /**
   * A throwaway in-memory database starts from a tarball of a fresh data folder instead of running
   * initdb: the tests' many databases (testing/pglite-template.ts).
   */
  pgliteQuickStart?: QuickStart;
  poolSize?: number;
  /**
   * PostgreSQL: the connections of `genericReads` (the search box's), at most `poolSize`. Its
   * statements are short and all CPU: more of them running at once than the database has cores
   * makes each slower and the server's own thread wait for a core, while a search that waits for a
   * connection here waits only for one that ends within milliseconds.
   */
  searchConnections?: number;
  /** Statements each PostgreSQL connection keeps prepared (StatementCache); 0 for none. */
  statementCache?: number;
  /** PostgreSQL: the statement_timeout of `reads`, in ms; 0 or undefined for none. */
  statementTimeoutMs?: number;
  /** Told what opening the database did beyond opening it (an upgrade of PGlite's data folder). */
  log?: (message: string) => void;
}

/** Opens PostgreSQL when a URL is given, else the embedded PGlite database. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl)
    return openPostgres(
      options.databaseUrl,
      {
        max: options.poolSize ?? 10,
        search: options.searchConnections ?? DEFAULT_SEARCH_CONNECTIONS,
      },
      { ...DEFAULT_STATEMENT_CACHE, size: options.statementCache ?? DEFAULT_STATEMENT_CACHE.size },
      options.statementTimeoutMs ?? 0,
    );
  const dir = options.pgliteDir ?? "memory://";
  if (dir.startsWith("memory://"))
    return pgliteDatabase(await startPgliteThread(dir, options.pgliteQuickStart));
  return openPglite(dir, options.log);
}

/** DatabaseOptions.searchConnections unless told: the cores of a small database server. */
export const DEFAULT_SEARCH_CONNECTIONS = 4;

/**
 * The settings of the connections of Database.genericReads. A generic plan is made for the rows a
 * look may read at most, and launching parallel workers for such a look cost 5-10 ms where the
 * look itself costs a fraction of one (docs/decisions.md, The search box).
 */
const GENERIC_READS_SETTINGS = {
  plan_cache_mode: "force_generic_plan",
  max_parallel_workers_per_gather: "0",
};

function postgresPool(
  url: string,
  max: number,
  statementCache: StatementCacheLimits,
  statementTimeoutMs: number,
  settings: Record<string, string> = {},
): pg.Pool {
  const { connectionString, options } = withStartupSettings(url, settings);
  // The pool hands its options to each client it makes (CallbackQueryClient reads statementCache).
  const pool = new pg.Pool({
    connectionString,
    max,
    // Large reads (exports, history) keep no rows alive between queries; repeated ones are prepared.
    Client: CallbackQueryClient,
    ...({ statementCache } as pg.PoolConfig),
    // Sent with the connection's start-up: no statement of its own per request or per connection.
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
    ...(options ? { options } : {}),
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        VALUE_PARSERS[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle pooled connection can die (server restart, dropped database); without a handler that
  // error would crash the process. The pool replaces the connection at the next query.
  pool.on("error", () => undefined);
  return pool;
}

/**
 * The start-up `options` of a pool's connections: those of the connection string, then the pool's
 * own settings, which win where both set one. pg lays a connection string's parameters over the
 * pool's, so a URL's `options` would otherwise replace the settings rather than join them.
 */
export function withStartupSettings(
  url: string,
  settings: Record<string, string>,
): { connectionString: string; options?: string } {
  const own = Object.entries(settings).map(([name, value]) => `-c ${name}=${value}`);
  // A connection string that is no URL (a socket's folder) carries no options.
  const parsed = URL.canParse(url) ? new URL(url) : undefined;
  const given = parsed?.searchParams.get("options");
  if (parsed && given != null) parsed.searchParams.delete("options");
  const options = [...(given == null ? [] : [given]), ...own].join(" ");
  return {
    connectionString: parsed && given != null ? parsed.toString() : url,
    ...(options ? { options } : {}),
  };
}

function openPostgres(
  url: string,
  connections: { max: number; search: number },
  statementCache: StatementCacheLimits,
  statementTimeoutMs: number,
): Database {
  const { max } = connections;
  const pool = postgresPool(url, max, statementCache, 0);
  const statements: StatementListeners = { listeners: [] };
  const log = timedBy(statements);
  const db = new Kysely<AppTables>({ dialect: new PostgresDialect({ pool }), log });
  // A pool of its own: a timeout set per statement would cost each read a round trip.
  const readsPool =
    statementTimeoutMs > 0 ? postgresPool(url, max, statementCache, statementTimeoutMs) : undefined;
  const reads = readsPool
    ? new Kysely<AppTables>({ dialect: new PostgresDialect({ pool: readsPool }), log })
    : db;
  // Without prepared statements a generic plan saves nothing, and behind a pooler in transaction
  // mode (the reason to turn them off) start-up settings may not be accepted.
  const genericPool =
    statementCache.size === 0
      ? undefined
      : postgresPool(
          url,
          Math.min(connections.search, max),
          statementCache,
          statementTimeoutMs,
          GENERIC_READS_SETTINGS,
        );
  const genericReads = genericPool
    ? new Kysely<AppTables>({ dialect: new PostgresDialect({ pool: genericPool }), log })
    : reads;
  const pools = [pool, ...(readsPool ? [readsPool] : []), ...(genericPool ? [genericPool] : [])];
  // COPY needs the raw connection, which Kysely does not hand out: a transaction of
  // Database.transaction runs on a connection taken from the pool first, noted here by the
  // transaction object it hands to `work`.
  const transactionClients = new WeakMap<Db, pg.PoolClient>();
  const listeners = new Set<pg.Client>();
  const copy = async (client: pg.PoolClient, target: CopyTarget, data: CopyData) => {
    const stream = client.query(copyFrom(copyStatement(target, "stdin")));
    await pipeline(Readable.from([data.text]), stream);
    checkCopied(stream.rowCount, data.rows);
  };
  return {
    db,
    reads,
    genericReads: (work) => work(genericReads),
    kind: "postgres",
    copyRows: async (on, target, data) => {
      if (on.isTransaction) {
        const client = transactionClients.get(on);
        if (!client) throw new Error("COPY inside a transaction needs Database.transaction");
        return copy(client, target, data);
      }
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        await copy(client, target, data);
      } catch (error) {
        failure = error as Error;
        throw error;
      } finally {
        // A connection a COPY failed on is closed rather than reused.
        client.release(failure);
      }
    },
    transaction: async (work) => {
      const client = await pool.connect();
      // The same dialect as `db` on one connection (keep the two alike: a plugin added to one
      // belongs on the other). Kysely releases the connection to the pool when the transaction ends.
      const onClient = new Kysely<AppTables>({
        dialect: new PostgresDialect({
          pool: { connect: async () => client, end: async () => {} },
        }),
        log,
      });
      let transaction: Db | undefined;
      try {
        return await onClient.transaction().execute((tx) => {
          transaction = tx;
          transactionClients.set(tx, client);
          return work(tx);
        });
      } finally {
        // A COPY after the end would run on a connection the pool may have handed on.
        if (transaction) transactionClients.delete(transaction);
      }
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
    connections: () => {
      const sum = (count: (p: pg.Pool) => number) => pools.reduce((n, p) => n + count(p), 0);
      return {
        inUse: sum((p) => p.totalCount - p.idleCount),
        idle: sum((p) => p.idleCount),
        waiting: sum((p) => p.waitingCount),
      };
    },
    statements,
    close: async () => {
      await Promise.all([...listeners].map((c) => c.end().catch(() => undefined)));
      if (genericReads !== reads) await genericReads.destroy();
      if (reads !== db) await reads.destroy();
      await db.destroy();
    },
  };
}

/** The embedded database in a data folder, locked against other processes while open. */
async function openPglite(dir: string, log?: (message: string) => void): Promise<Database> {
  await fs.mkdir(path.dirname(dir), { recursive: true });
  const unlock = await lockDataFolder(dir);
  const thread = await startPgliteThread(dir).catch(async (error) => {
    await unlock();
    throw error;
  });
  if (thread.upgrade)
    log?.(
      `The embedded database in ${dir} was upgraded from ${thread.upgrade.from} to this PGlite; the old folder is kept as ${thread.upgrade.backup}`,
    );
  const database = pgliteDatabase(thread);
  return {
    ...database,
    folder: path.resolve(dir),
    close: async () => {
      await database.close();
      await unlock();
    },
  };
}

/** The Database interface over the embedded database's one session. */
export function pgliteDatabase(thread: PgliteThread): Database {
  const statements: StatementListeners = { listeners: [] };
  const session = new PgliteSession(thread);
  const db = new Kysely<AppTables>({
    dialect: new PgliteDialect(session),
    log: timedBy(statements),
  });
  const genericReads = new Kysely<AppTables>({
    dialect: new PgliteDialect(session, "prepared"),
    log: timedBy(statements),
  });
  return {
    db,
    reads: db,
    genericReads: (work) => work(genericReads),
    kind: "pglite",
    copyRows: async (on, target, data) => {
      // Through the driver like any statement: inside a transaction it is that one's, and outside
      // one it waits for the session, never landing in another request's open transaction.
      const copy = copyQuery(copyStatement(target, "'/dev/blob'"), data.text);
      const { numAffectedRows } = await on.executeQuery(copy);
      checkCopied(numAffectedRows === undefined ? undefined : Number(numAffectedRows), data.rows);
    },
    transaction: (work) => db.transaction().execute(work),
    listen: (channel, handler) => thread.listen(channel, handler),
    connections: () => {
      const pending = thread.pending();
      return {
        inUse: Math.min(pending, 1),
        idle: pending > 0 ? 0 : 1,
        waiting: Math.max(pending - 1, 0),
      };
    },
    statements,
    // Closes the thread, which checkpoints first.
    close: () => db.destroy(),
  };
}
