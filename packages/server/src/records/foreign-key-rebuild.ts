import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { MIN_BULK_ROWS } from "./index-rebuild.ts";

export interface ForeignKey {
  name: string;
  definition: string;
}

/**
 * Runs `write`, an insert of about `rows` rows into `schema.table` inside the caller's transaction,
 * with the table's foreign keys dropped, and adds them again after it: PostgreSQL then checks every
 * row in one set-based join instead of looking each inserted row's reference up (half the cost of
 * inserting a data element). Only for a bulk write, and only the keys whose two tables the
 * transaction holds alone already: the table itself, locked for the write's index rebuild
 * (writeWithIndexRebuild), and the referenced one, when it is the table itself or a type the same
 * transaction bulk-wrote before (a metadata import's data objects). Dropping or adding a foreign
 * key locks both tables, and asking for a lock here, after the write's other locks, could wait on
 * or deadlock with other sessions, or keep readers of a type that is not written off it; the other
 * keys stay and check row by row. A row whose reference is not there fails the transaction as it
 * would row by row (23503, foreign_key_violation).
 */
export async function writeWithForeignKeysAfter<T>(
  tx: Db,
  schema: string,
  table: string,
  rows: number,
  write: () => Promise<T>,
): Promise<T> {
  if (rows < MIN_BULK_ROWS) return write();
  const keys = await dropForeignKeysHeldAlone(tx, schema, table);
  const result = await write();
  await addForeignKeys(tx, schema, table, keys);
  return result;
}

/**
 * Drops the foreign keys of `schema.table` whose two tables the transaction holds alone (see
 * writeWithForeignKeysAfter), for a write of any size: a first load's, whose rows are not counted
 * before they are written and whose table is held alone in any case. Answers them, for
 * addForeignKeys once the rows are written.
 */
export async function dropForeignKeysHeldAlone(
  tx: Db,
  schema: string,
  table: string,
): Promise<ForeignKey[]> {
  const keys = await foreignKeysHeldAlone(tx, schema, table);
  const target = sql.table(`${schema}.${table}`);
  for (const key of keys)
    await sql`alter table ${target} drop constraint ${sql.id(key.name)}`.execute(tx);
  return keys;
}

/** Adds dropped foreign keys (dropForeignKeysHeldAlone) again, checking every row at once. */
export async function addForeignKeys(
  tx: Db,
  schema: string,
  table: string,
  keys: readonly ForeignKey[],
): Promise<void> {
  const target = sql.table(`${schema}.${table}`);
  for (const key of keys)
    await sql`alter table ${target} add constraint ${sql.id(key.name)} ${sql.raw(key.definition)}`.execute(
      tx,
    );
}

/** The table's foreign keys whose table and referenced table this transaction holds exclusively. */
async function foreignKeysHeldAlone(tx: Db, schema: string, table: string): Promise<ForeignKey[]> {
  const heldAlone = (relation: string) => sql`exists (select 1 from pg_locks l
    where l.locktype = 'relation' and l.pid = pg_backend_pid() and l.granted
      and l.mode = 'AccessExclusiveLock' and l.relation = ${sql.ref(relation)})`;
  const { rows } = await sql<ForeignKey>`
    select k.conname as name, pg_get_constraintdef(k.oid) as definition
    from pg_constraint k
    where k.contype = 'f' and k.conrelid = ${`${schema}.${table}`}::regclass
      and ${heldAlone("k.conrelid")} and ${heldAlone("k.confrelid")}
    order by k.conname`.execute(tx);
  return rows;
}
