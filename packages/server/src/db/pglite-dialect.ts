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
import { mayBeGuest } from "./pglite-guests.ts";
import type { QueryAnswer } from "./pglite-protocol.ts";
import type { PgliteThread } from "./pglite-thread.ts";

/** The COPY texts of queries made by copyQuery, which the connection sends along. */
const copyTexts = new WeakMap<CompiledQuery, string | Uint8Array<ArrayBuffer>>();

/** `copy ... from '/dev/blob'` reading `text`, run through Kysely like any query. */
export function copyQuery(sql: string, text: string | Uint8Array<ArrayBuffer>): CompiledQuery {
  const query = CompiledQuery.raw(sql);
  copyTexts.set(query, text);
  return query;
}

/**
 * PGlite's one session for the whole server: a caller holds it from its first statement to the end
 * of its turn (a statement, or a whole transaction), the others waiting first come first served.
 * While the holder's transaction is open, a read of a waiting caller may be served inside it as a
 * guest (pglite-guests.ts), rather than wait for its commit.
 */
export class PgliteSession {
  private held = false;
  private readonly queue: (() => void)[] = [];
  /** Whether the holder has a transaction open. */
  inTransaction = false;
  private began = signal();

  constructor(readonly thread: PgliteThread) {}

  /** Answers when the holder next opens a transaction. */
  nextTransaction(): Promise<void> {
    return this.began.promise;
  }

  transactionOpen(open: boolean): void {
    this.inTransaction = open;
    if (!open) return;
    this.began.fire();
    this.began = signal();
  }

  /** Answers once the session is the caller's. */
  async take(): Promise<void> {
    if (!this.held) {
      this.held = true;
      return;
    }
    return new Promise((resolve) => this.queue.push(resolve));
  }

  release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.held = false;
  }
}

/**
 * How a dialect runs its statements: as PGlite's query API does, parsed and planned at each run, or
 * kept prepared and planned once for any values (Database.genericReads).
 */
type Runs = "query" | "prepared";

/** A caller's turn on the session: it takes the session at its first statement that is no guest. */
class PgliteConnection implements DatabaseConnection {
  holding = false;

  constructor(
    private readonly session: PgliteSession,
    private readonly runs: Runs,
  ) {}

  async hold(): Promise<void> {
    if (this.holding) return;
    await this.session.take();
    this.holding = true;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const { thread } = this.session;
    if (!this.holding && mayBeGuest(query.sql)) {
      const served = await this.servedWhileWaiting(query);
      if (served) return queryResult<R>(served);
    }
    await this.hold();
    const copyText = copyTexts.get(query);
    return queryResult<R>(
      await (this.runs === "prepared" && copyText === undefined
        ? thread.prepared(query.sql, query.parameters)
        : thread.query(query.sql, query.parameters, copyText)),
    );
  }

  /**
   * Waits for the session, offering the read as a guest whenever a transaction holds it: answers
   * the guest's rows, or undefined once the session is this caller's. A guest served gives its
   * turn away when it comes.
   */
  private async servedWhileWaiting(query: CompiledQuery): Promise<QueryAnswer | undefined> {
    const { session } = this;
    const turn = session.take().then(() => "turn" as const);
    for (;;) {
      if (session.inTransaction) {
        const answer = await session.thread.guest(query.sql, query.parameters);
        if (answer.admitted) {
          void turn.then(() => session.release());
          return answer;
        }
        break;
      }
      const next = await Promise.race([
        turn,
        session.nextTransaction().then(() => "transaction" as const),
      ]);
      if (next === "turn") break;
    }
    await turn;
    this.holding = true;
    return undefined;
  }

  // Nothing here streams (exports page through the table); PGlite would hold the whole result anyway.
  // biome-ignore lint/correctness/useYield: refuses before the first row
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("Streaming queries are not supported on the embedded database");
  }
}

/** A promise fired once, by hand. */
function signal(): { promise: Promise<void>; fire(): void } {
  let fire = () => {};
  const promise = new Promise<void>((resolve) => {
    fire = resolve;
  });
  return { promise, fire };
}

function queryResult<R>({ rows, affectedRows }: QueryAnswer<unknown>): QueryResult<R> {
  return affectedRows === undefined
    ? { rows: rows as R[] }
    : { rows: rows as R[], numAffectedRows: BigInt(affectedRows) };
}

class PgliteDriver implements Driver {
  constructor(
    private readonly session: PgliteSession,
    private readonly runs: Runs,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new PgliteConnection(this.session, this.runs);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if ((connection as PgliteConnection).holding) this.session.release();
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    const mode = [
      settings.isolationLevel && `isolation level ${settings.isolationLevel}`,
      settings.accessMode,
    ].filter(Boolean);
    await (connection as PgliteConnection).hold();
    await connection.executeQuery(CompiledQuery.raw(`start transaction ${mode.join(" ")}`));
    this.session.transactionOpen(true);
  }

  async commitTransaction(connection: DatabaseConnection) {
    await this.endTransaction(connection, "commit");
  }

  async rollbackTransaction(connection: DatabaseConnection) {
    await this.endTransaction(connection, "rollback");
  }

  private async endTransaction(connection: DatabaseConnection, command: string) {
    this.session.transactionOpen(false);
    await connection.executeQuery(CompiledQuery.raw(command));
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

  /** Closes the database: the dialect that runs queries owns the thread, the prepared one shares it. */
  async destroy(): Promise<void> {
    if (this.runs === "query") await this.session.thread.close();
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

/**
 * Kysely on the embedded database running in its own thread (db/pglite-thread.ts), through its one
 * session: the dialects of one database share it.
 */
export class PgliteDialect implements Dialect {
  constructor(
    private readonly session: PgliteSession,
    private readonly runs: Runs = "query",
  ) {}

  createAdapter() {
    return new PgliteAdapter();
  }

  createDriver(): Driver {
    return new PgliteDriver(this.session, this.runs);
  }

  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own dialects take any database here
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
