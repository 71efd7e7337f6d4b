import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

export interface TableIndex {
  name: string;
  definition: string;
  /** Object id: an index built again gets a new one. */
  oid: number;
}

/** The indexes of a table (`schema.table`), by name. */
export async function tableIndexes(db: Db, table: string): Promise<TableIndex[]> {
  const { rows } = await sql<TableIndex>`
    select c.relname as name, pg_get_indexdef(i.indexrelid) as definition, i.indexrelid::int as oid
    from pg_index i join pg_class c on c.oid = i.indexrelid
    where i.indrelid = ${table}::regclass order by c.relname`.execute(db);
  return rows;
}

/** Names and definitions only, to compare indexes across a rebuild. */
export const withoutOids = (list: readonly TableIndex[]) =>
  list.map(({ name, definition }) => ({ name, definition }));
