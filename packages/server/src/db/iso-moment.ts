import { type RawBuilder, sql } from "kysely";

/**
 * A timestamptz column as ISO 8601 text in UTC with its microseconds. A moment a client may send
 * back as `asOf` must keep them: a `Date` keeps milliseconds and would fall just before the
 * change the moment stands for.
 */
export function isoMoment(column: string): RawBuilder<string> {
  return sql<string>`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}
