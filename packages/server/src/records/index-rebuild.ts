import { setTimeout } from "node:timers/promises";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { isUniqueViolation, sqlState } from "../db/pg-errors.ts";
import { oneSession } from "../db/pglite-dialect.ts";

/** Fewer rows than this are always written with the indexes in place. */
export const MIN_BULK_ROWS = 10_000;
/** lock_not_available (the wait timed out) and deadlock_detected. */
const LOCK_FAILURES = new Set(["55P03", "40P01"]);
/** How long a bulk write waits for readers to leave the table before it keeps the indexes instead. */
const LOCK_WAIT = "2s";

/** What a bulk write answers: the write's result, and the indexes left for buildIndexes. */
export interface BulkWrite<T> {
  result: T;
  /** Definitions of the non-unique indexes dropped for the write, to build once it commits. */
  indexes: string[];
}

/**
 * Runs `write`, a set-based write of about `rows` rows of a type table (inserts, or updates of
 * indexed values), inside the caller's transaction. When those rows are at least 10,000 and at
 * least as many as the table holds, the table's secondary indexes are dropped for the write: one
 * sorted build per index is 3-5 times cheaper than maintaining a dozen btree and trigram indexes
 * row by row. The same holds for `history`, the table the write's trigger copies replaced rows
 * into, by its own size. That needs each table to itself until the transaction commits; if other
 * sessions hold it for more than a moment (or a deadlock looms), the write keeps its indexes
 * instead. Unique indexes are built again before it answers, as they guard the data (a duplicate
 * fails the transaction); the others are answered, for buildIndexes once the transaction has
 * committed, as a first load does.
 */
export async function writeWithIndexRebuild<T>(
  tx: Db,
  schema: string,
  tables: { table: string; history?: string },
  rows: number,
  write: () => Promise<T>,
): Promise<BulkWrite<T>> {
  if (rows < MIN_BULK_ROWS) return { result: await write(), indexes: [] };
  // The write joins its rows with their events and its trigger joins old and new versions: with
  // the default 4 MB those sorts and hashes spill to disk.
  await WRITE_MEMORY.execute(tx);
  const dropped: SecondaryIndex[] = [];
  for (const table of [tables.table, tables.history])
    if (table !== undefined) dropped.push(...(await dropIndexesForWrite(tx, schema, table, rows)));
  const result = await write();
  await buildInTransaction(
    tx,
    dropped.filter((i) => i.unique).map((i) => i.definition),
  );
  return { result, indexes: dropped.filter((i) => !i.unique).map((i) => i.definition) };
}

/**
 * Drops the secondary indexes of `table` for a write of about `rows` of its rows, when it holds no
 * more rows than that and no other session keeps it for more than a moment (see
 * writeWithIndexRebuild); answers what it dropped, for the caller to build again.
 */
export async function dropIndexesForWrite(
  tx: Db,
  schema: string,
  table: string,
  rows: number,
): Promise<SecondaryIndex[]> {
  const target = sql.table(`${schema}.${table}`);
  if (!(await atMost(tx, target, rows)) || !(await lockAlone(tx, target))) return [];
  return dropSecondaryIndexes(tx, schema, table);
}

/**
 * Lets a long write's new trigram (GIN) entries gather in each index's pending list for the rest
 * of the transaction, instead of being merged into the index at every 4 MB of them (PostgreSQL's
 * default): a fifth of a bulk update's time. mergePendingEntries merges them once the transaction
 * has committed; until then a trigram search reads the list too, and another session's insert
 * into the type may merge it in the foreground (about 1 s for a 1,000,000-row re-upload's). The
 * transaction then looks nothing up through those indexes (a trigram index also serves `=`, by
 * bitmap scans only, which this turns off with it): each lookup would read the whole list.
 */
export async function gatherPendingEntries(tx: Db): Promise<void> {
  await sql`select set_config('gin_pending_list_limit', '256MB', true),
    set_config('enable_bitmapscan', 'off', true)`.execute(tx);
}

/** Merges the pending lists of the table's trigram (GIN) indexes into the indexes. */
export async function mergePendingEntries(db: Db, schema: string, table: string): Promise<void> {
  await sql`select gin_clean_pending_list(i.indexrelid::regclass)
    from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam
    where i.indrelid = ${`${schema}.${table}`}::regclass and a.amname = 'gin'`.execute(db);
}

/**
 * Takes `schema.table`, which must hold no rows at all, for a first load inside the caller's
 * transaction: locks it against every other session until the transaction ends and drops its
 * secondary indexes, which the load's rows would otherwise enter one by one. Answers them, for
 * the caller to build again: the unique ones before the commit (buildUniqueAgain), as they guard
 * the data, the others after it (buildIndexes). Answers undefined, having changed nothing, when
 * the table holds a row or other sessions keep it for more than a moment.
 */
export async function takeEmptyTable(
  tx: Db,
  schema: string,
  table: string,
): Promise<SecondaryIndex[] | undefined> {
  const target = sql.table(`${schema}.${table}`);
  // Looked at before the lock too, so a table that holds rows is never locked for nothing.
  const empty = () => atMost(tx, target, 0);
  if (!(await empty()) || !(await lockAlone(tx, target)) || !(await empty())) return undefined;
  return dropSecondaryIndexes(tx, schema, table);
}

/**
 * Builds the unique ones among `indexes` (takeEmptyTable's) again. Answers false, having built
 * none and with the transaction still usable, when one of them finds a value twice.
 */
export async function buildUniqueAgain(
  tx: Db,
  indexes: readonly SecondaryIndex[],
): Promise<boolean> {
  await sql`savepoint unique_indexes`.execute(tx);
  try {
    await buildInTransaction(
      tx,
      indexes.filter((i) => i.unique).map((i) => i.definition),
    );
    await sql`release savepoint unique_indexes`.execute(tx);
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    await sql`rollback to savepoint unique_indexes`.execute(tx);
    return false;
  }
}

export interface SecondaryIndex {
  name: string;
  definition: string;
  unique: boolean;
}

async function dropSecondaryIndexes(
  tx: Db,
  schema: string,
  table: string,
): Promise<SecondaryIndex[]> {
  // Indexes backing a constraint (the primary key) stay: foreign keys of other tables need them.
  const { rows: indexes } = await sql<SecondaryIndex>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition, i.indisunique as unique
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = ${`${schema}.${table}`}::regclass
      and not exists (select 1 from pg_constraint k where k.conindid = i.indexrelid)`.execute(tx);
  for (const index of indexes) await sql`drop index ${sql.id(schema, index.name)}`.execute(tx);
  return indexes;
}

const BUILD_MEMORY = sql`set local maintenance_work_mem = '256MB'`;
const WRITE_MEMORY = sql`set local work_mem = '256MB'`;

/** Builds indexes from their definitions inside the caller's transaction, one after another. */
export async function buildInTransaction(tx: Db, definitions: readonly string[]): Promise<void> {
  if (definitions.length === 0) return;
  await BUILD_MEMORY.execute(tx);
  for (const definition of definitions) await sql.raw(definition).execute(tx);
}

/** How many indexes buildIndexes builds at once on PostgreSQL, each on a connection of its own. */
const PARALLEL_BUILDS = 3;
/**
 * On PGlite, the pause between two builds: a call that waited for one build gets to send its next
 * statements before the next build takes the session again.
 */
const PAUSE_BETWEEN_BUILDS_MS = 30;

/**
 * Builds the indexes a committed first load or bulk write left out, several at once,
 * each in a transaction of its own, the trigram (GIN) ones first as they take longest; an index
 * that exists already is skipped. On PGlite one at a time, with a pause between them: builds
 * queued together would each be served before the calls made meanwhile (an upload's own answer
 * among them). A build blocks writes to the table while it runs, not reads.
 * Until they are built the table is whole, only slower to filter; one that fails is built by the
 * next start's model sync. Throws the first failure once every build has ended.
 */
export async function buildIndexes(db: Db, definitions: readonly string[]): Promise<void> {
  const queue = definitions
    .map((d) => d.replace(/^CREATE INDEX /, "CREATE INDEX IF NOT EXISTS "))
    .sort((a, b) => Number(b.includes(" USING gin ")) - Number(a.includes(" USING gin ")));
  const failures: unknown[] = [];
  const alone = oneSession(db);
  const builder = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      const definition = next;
      await db
        .transaction()
        .execute(async (tx) => {
          await BUILD_MEMORY.execute(tx);
          await sql.raw(definition).execute(tx);
        })
        .catch((error: unknown) => failures.push(error));
      if (alone && queue.length > 0) await setTimeout(PAUSE_BETWEEN_BUILDS_MS);
    }
  };
  await Promise.all(Array.from({ length: alone ? 1 : PARALLEL_BUILDS }, builder));
  if (failures.length > 0) throw failures[0];
}

/** Whether the table holds at most `rows` rows; reads no more than that many. */
async function atMost(tx: Db, target: ReturnType<typeof sql.table>, rows: number) {
  const { rows: found } = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from ${target} limit ${rows + 1}) t`.execute(tx);
  return found[0].n <= rows;
}

/** Takes the table exclusively if that is possible within LOCK_WAIT; answers whether it did. */
async function lockAlone(tx: Db, target: ReturnType<typeof sql.table>): Promise<boolean> {
  const { rows } = await sql<{
    wait: string;
  }>`select current_setting('lock_timeout') as wait`.execute(tx);
  await sql`savepoint index_rebuild`.execute(tx);
  try {
    await sql`select set_config('lock_timeout', ${LOCK_WAIT}, true)`.execute(tx);
    await sql`lock table ${target} in access exclusive mode`.execute(tx);
    await sql`release savepoint index_rebuild`.execute(tx);
    await sql`select set_config('lock_timeout', ${rows[0].wait}, true)`.execute(tx);
    return true;
  } catch (error) {
    if (!LOCK_FAILURES.has(sqlState(error) ?? "")) throw error;
    // Undoes the failed lock request and the timeout with it; the transaction goes on.
    await sql`rollback to savepoint index_rebuild`.execute(tx);
    return false;
  }
}
