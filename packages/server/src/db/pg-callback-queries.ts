import pg from "pg";
import {
  DEFAULT_STATEMENT_CACHE,
  StatementCache,
  type StatementCacheLimits,
} from "./statement-cache.ts";

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;
type Callback = (error: Error | null, result: pg.QueryResult) => void;

const pgQuery = pg.Client.prototype.query as unknown as Query;

const TRANSACTION_START = /^\s*(begin|start\s+transaction)\b/i;
/** Ends a transaction block; `rollback to savepoint` does not. */
const TRANSACTION_END = /^\s*(commit|end|abort|rollback)\b(?!\s+to\b)/i;

/**
 * pg's `Client.query`, its promise form run through its callback form (see CallbackQueryClient);
 * a text with values (what Kysely sends) runs as its client's statement cache says.
 */
function callbackQuery(
  this: CallbackQueryClient,
  config: unknown,
  values?: unknown,
  callback?: unknown,
) {
  const submittable =
    config !== null &&
    typeof config === "object" &&
    typeof (config as { submit?: unknown }).submit === "function";
  if (callback !== undefined || typeof values === "function" || submittable || config == null)
    return pgQuery.call(this, config, values, callback);
  const name =
    typeof config === "string"
      ? this.nameFor(config, Array.isArray(values) && values.length > 0)
      : undefined;
  return new Promise<pg.QueryResult>((resolve, reject) => {
    const done: Callback = (error, result) => (error ? reject(error) : resolve(result));
    pgQuery.call(this, name ? { name, text: config } : config, values, done);
  }).catch((error: Error) => {
    // A failed prepared statement is closed: it may hold a plan the schema no longer allows.
    if (name) this.close(this.statements.forget(config as string));
    Error.captureStackTrace(error);
    throw error;
  });
}

/**
 * The pool's client: pg's promise form of `query` (the one Kysely calls) runs through its callback
 * form.
 *
 * A pg Query made without a callback (the promise form sets one on it afterwards) keeps the rows of
 * every result alive across young-generation collections: with pg 8.23 on Node 20, reading
 * 1,000,000 rows in keyset chunks of 1,000 promoted all of them to the old generation (4-18 MB per
 * scavenge), which then grew by ~100 MB between full collections. The same loop with the callback
 * given to the Query from the start promotes almost nothing (docs/decisions.md, "Large reads keep
 * no rows"). Submittables (COPY streams) and calls that bring their own callback are untouched;
 * errors are rejected with the caller's stack, as pg's promise form does.
 *
 * It also keeps the statements it repeats prepared (StatementCache): the list calls of the API run
 * the same few texts again and again, and parsing and planning them was a third of PostgreSQL's
 * work per call (docs/performance.md, per-call overhead).
 */
export class CallbackQueryClient extends pg.Client {
  readonly statements: StatementCache;
  /**
   * Inside a transaction block statements run unnamed: its statements are the large one-off
   * writes (ingests, approvals) whose plans depend on what the transaction has just written.
   */
  #inTransaction = false;

  constructor(config?: pg.ClientConfig & { statementCache?: StatementCacheLimits }) {
    super(config);
    this.statements = new StatementCache(config?.statementCache ?? DEFAULT_STATEMENT_CACHE);
  }

  /**
   * The name to run `text` under, closing the one it displaces; undefined runs it unnamed. Only a
   * text with values is named: pg sends one without values by the simple protocol, which also runs
   * several statements in one text, and a name would move it to the extended one, which does not.
   */
  nameFor(text: string, withValues: boolean): string | undefined {
    if (TRANSACTION_START.test(text)) this.#inTransaction = true;
    else if (TRANSACTION_END.test(text)) this.#inTransaction = false;
    if (this.#inTransaction || !withValues) return undefined;
    const { name, close } = this.statements.planFor(text);
    for (const closed of close ?? []) this.close(closed);
    return name;
  }

  /** Closes a prepared statement: queued, so it runs before any statement sent after it. */
  close(name: string | undefined): void {
    if (name === undefined) return;
    pgQuery.call(this, `deallocate ${name}`, undefined, () => undefined);
    // pg remembers what it prepared on the connection; a closed name is never used again.
    const { connection } = this as unknown as { connection?: Record<string, unknown> };
    for (const known of ["parsedStatements", "submittedNamedStatements"]) {
      const names = connection?.[known] as Record<string, string> | undefined;
      if (names) delete names[name];
    }
  }
}
(CallbackQueryClient.prototype as unknown as { query: Query }).query = callbackQuery;
