import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

/** Fewer rows than this are always written with the indexes in place. */
const MIN_BULK_ROWS = 10_000;

/**
 * Whether writing `rows` rows (inserts, or updates of indexed values) is cheaper with the table's
 * secondary indexes built afresh afterwards: when they are at least as many as the rows already
 * there, one sorted build per index beats maintaining a dozen btree and trigram indexes row by
 * row (3-5x in this product's tables).
 */
export async function worthRebuildingIndexes(
  db: Db,
  schema: string,
  table: string,
  rows: number,
): Promise<boolean> {
  if (rows < MIN_BULK_ROWS) return false;
  const { rows: size } = await sql<{ n: number }>`
    select greatest(c.reltuples, 0)::float8 as n from pg_class c
    where c.oid = ${`${schema}.${table}`}::regclass`.execute(db);
  return rows >= (size[0]?.n ?? 0);
}

/**
 * Runs `work` with the table's secondary indexes (those not backing a constraint) dropped, then
 * builds them again from their own definitions. Must run inside a transaction: the table is
 * locked against readers until it commits, and a failed rebuild (a duplicate in a unique index)
 * rolls everything back.
 */
export async function withIndexesRebuilt<T>(
  tx: Db,
  schema: string,
  table: string,
  work: () => Promise<T>,
): Promise<T> {
  const { rows: indexes } = await sql<{ name: string; definition: string }>`
    select i.indexname as name, i.indexdef as definition from pg_indexes i
    where i.schemaname = ${schema} and i.tablename = ${table}
      and i.indexname not in (
        select c.conname from pg_constraint c where c.conrelid = ${`${schema}.${table}`}::regclass)`.execute(
    tx,
  );
  for (const index of indexes) await sql`drop index ${sql.id(schema, index.name)}`.execute(tx);
  const result = await work();
  await sql`set local maintenance_work_mem = '256MB'`.execute(tx);
  for (const index of indexes) await sql.raw(index.definition).execute(tx);
  return result;
}
