import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from "kysely";
import pg from "pg";
import type { PgliteThread } from "./pglite-thread.ts";

/** The one session of the embedded database, as Kysely runs queries on it. */
class PgliteConnection implements DatabaseConnection {
  constructor(private readonly thread: PgliteThread) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { rows, affectedRows } = await this.thread.query<R>(query.sql, query.parameters);
    return affectedRows === undefined ? { rows } : { rows, numAffectedRows: BigInt(affectedRows) };
  }

  // Nothing here streams (exports page through the table); PGlite would hold the whole result anyway.
  // biome-ignore lint/correctness/useYield: refuses before the first row
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming queries are not supported on the embedded database");
  }
}

/**
 * PGlite has one session for the whole server: a caller holds it from acquireConnection to
 * releaseConnection (a whole transaction), and the others wait their turn, first come first served.
 */
class PgliteDriver implements Driver {
  private readonly connection: PgliteConnection;
  private held = false;
  private readonly queue: ((connection: PgliteConnection) => void)[] = [];

  constructor(private readonly thread: PgliteThread) {
    this.connection = new PgliteConnection(thread);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    if (!this.held) {
      this.held = true;
      return this.connection;
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  async releaseConnection(): Promise<void> {
    const next = this.queue.shift();
    if (next) next(this.connection);
    else this.held = false;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const mode = [
      settings.isolationLevel && `isolation level ${settings.isolationLevel}`,
      settings.accessMode,
    ].filter(Boolean);
    await connection.executeQuery(CompiledQuery.raw(`start transaction ${mode.join(" ")}`));
  }

  async commitTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("commit"));
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(CompiledQuery.raw("rollback"));
  }

  async savepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(savepointCommand("savepoint", name));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(savepointCommand("rollback to", name));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string) {
    await connection.executeQuery(savepointCommand("release", name));
  }

  async destroy(): Promise<void> {
    await this.thread.close();
  }
}

const savepointCommand = (command: string, name: string) =>
  CompiledQuery.raw(`${command} ${pg.escapeIdentifier(name)}`);

/** PostgreSQL's adapter, telling the Kysely instances of the embedded database apart (oneSession). */
class PgliteAdapter extends PostgresAdapter {}

/**
 * Whether `db` runs on the embedded database, whose one session serves the whole server one
 * caller at a time: work queued on it at once is all done before any call made meanwhile.
 */
// biome-ignore lint/suspicious/noExplicitAny: any Kysely instance, a transaction's included
export function oneSession(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PgliteAdapter;
}

/** Kysely on the embedded database running in its own thread (db/pglite-thread.ts). */
export class PgliteDialect implements Dialect {
  constructor(private readonly thread: PgliteThread) {}

  createAdapter() {
    return new PgliteAdapter();
  }

  createDriver(): Driver {
    return new PgliteDriver(this.thread);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own dialects take any database here
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
