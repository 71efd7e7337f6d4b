import { type RawBuilder, sql } from "kysely";

/**
 * `any($1::bigint[])`: a list of ids as ONE bind parameter, however long. An `in (...)` list takes
 * a parameter per id, and a statement holds at most 65,535 of them on either engine, where a page
 * may hold 100,000 records and a deletion or a decision may name as many.
 */
export function anyId(ids: readonly number[]): RawBuilder<number> {
  return sql<number>`any(${[...ids]}::bigint[])`;
}
