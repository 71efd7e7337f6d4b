import { CompiledQuery } from "kysely";
import type { Db } from "../db/connection.ts";

/** A table is scanned whole by the search when it holds at most this many bytes (two pages). */
export const WHOLE_TABLE_BYTES = 16_384;
/**
 * A table is read with the small ones, through its indexes, when it holds at most this many bytes
 * (sixteen pages: some hundreds of rows, the countries, the currencies).
 */
export const SMALL_TABLE_BYTES = 131_072;
/**
 * How long a table's size is trusted. A table that grew past SMALL_TABLE_BYTES is read as a small
 * one, still right but slower, for at most this long.
 */
const SIZE_MAX_AGE_MS = 1_000;

/**
 * How a small table is read, with the others (search.repository.ts): every row, or the rows its
 * searchable attributes' indexes find.
 */
export type SmallRead = "scan" | "indexes";

/** A table by its schema and name. */
export interface TableName {
  schema: string;
  name: string;
}

const SIZES = `select n.schema, n.name,
    pg_relation_size(to_regclass(format('%I.%I', n.schema, n.name)))::float8 as bytes
  from unnest($1::text[], $2::text[]) as n(schema, name)`;

interface Sizes {
  readAt: number;
  bytes: Promise<Map<string, number>>;
}

/** The sizes read, by the database they were read from. */
const SIZES_OF = new WeakMap<object, Sizes>();

const keyOf = (table: TableName) => `${table.schema}.${table.name}`;

/**
 * Which of `tables` are small (as `schema.name`), and how each is read, their sizes read from
 * `db` at most SIZE_MAX_AGE_MS ago: one query a second for every search of a database (`owner`).
 * A table's size on disk, not its rows' count, is what reading it costs.
 */
export async function smallTables(
  owner: object,
  db: Db,
  tables: readonly TableName[],
): Promise<ReadonlyMap<string, SmallRead>> {
  const now = Date.now();
  let sizes = SIZES_OF.get(owner);
  if (sizes === undefined || now - sizes.readAt >= SIZE_MAX_AGE_MS) {
    const read: Sizes = { readAt: now, bytes: readSizes(db, tables) };
    // A failed read is not kept: the next search reads again.
    read.bytes.catch(() => SIZES_OF.get(owner) === read && SIZES_OF.delete(owner));
    SIZES_OF.set(owner, read);
    sizes = read;
  }
  const bytes = await sizes.bytes;
  const small = new Map<string, SmallRead>();
  for (const key of tables.map(keyOf)) {
    const size = bytes.get(key) ?? Number.POSITIVE_INFINITY;
    if (size <= SMALL_TABLE_BYTES) small.set(key, size <= WHOLE_TABLE_BYTES ? "scan" : "indexes");
  }
  return small;
}

async function readSizes(db: Db, tables: readonly TableName[]): Promise<Map<string, number>> {
  const { rows } = await db.executeQuery<TableName & { bytes: number | null }>(
    CompiledQuery.raw(SIZES, [tables.map((t) => t.schema), tables.map((t) => t.name)]),
  );
  return new Map(rows.map((r) => [keyOf(r), r.bytes ?? Number.POSITIVE_INFINITY]));
}
