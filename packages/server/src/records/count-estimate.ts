import type { EntityQuery } from "@ledgerline/contract";
import { CompiledQuery, type RawBuilder } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ListQuery } from "./list-query.ts";
import { typeCount } from "./type-counts.repository.ts";

/** How often a type's size is read again to decide whether its lists may be estimated. */
const SIZE_MAX_AGE_MS = 60_000;

/** When lists are estimated: above `above` rows, on types this instance last saw holding more. */
export interface CountEstimates {
  above: number;
  /** The type's rows as read at most a minute ago. */
  typeRows(db: Db, context: string, type: string): Promise<number>;
}

/**
 * The threshold with a memo of type sizes. A list of a type that holds no more rows than the
 * threshold cannot match more, so it is counted without asking the planner first; the memo only
 * saves that question (a stale size at worst asks it needlessly or skips an estimate for a minute),
 * never changes what an answer says: an estimate is always marked, a count always exact.
 */
export function countEstimates(above: number): CountEstimates {
  const sizes = new Map<string, { rows: number; readAt: number }>();
  return {
    above,
    async typeRows(db, context, type) {
      const key = `${context}.${type}`;
      const known = sizes.get(key);
      if (known && Date.now() - known.readAt < SIZE_MAX_AGE_MS) return known.rows;
      const rows = await typeCount(db, context, type);
      sizes.set(key, { rows, readAt: Date.now() });
      return rows;
    },
  };
}

/**
 * The planner's estimate of the rows a list holds: the rows of its top node, planning only; nothing
 * is read.
 */
async function plannedRows(db: Db, matching: RawBuilder<unknown>): Promise<number> {
  const compiled = matching.compile(db);
  const { rows } = await db.executeQuery<{ "QUERY PLAN": [{ Plan: { "Plan Rows": number } }] }>(
    CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  return Math.round(rows[0]["QUERY PLAN"][0].Plan["Plan Rows"]);
}

/** Whether a list's count may be estimated: a filtered list of now, not a pending list or one record. */
function mayEstimate(q: EntityQuery): boolean {
  // The last page read from the end needs the true count to know how many rows it keeps.
  return (
    !q.exactCount &&
    !q.seek?.last &&
    !q.requirePending &&
    q.asOf === undefined &&
    q.entityKeyID === undefined
  );
}

/**
 * The count of a filtered list: exact, or, when the planner expects more than the threshold's rows,
 * that estimate (counting them would read every matching row; on 10,000,000 records a filter
 * matching a million takes seconds). An estimate at or below the threshold is counted exactly.
 */
export async function listCount(
  db: Db,
  target: { context: string; type: string },
  q: EntityQuery,
  query: ListQuery & { count: RawBuilder<{ n: number }> },
  estimates: CountEstimates | undefined,
): Promise<{ querySize: number; querySizeEstimated?: true }> {
  if (
    estimates &&
    mayEstimate(q) &&
    (await estimates.typeRows(db, target.context, target.type)) > estimates.above
  ) {
    const planned = await plannedRows(db, query.matching);
    if (planned > estimates.above) return { querySize: planned, querySizeEstimated: true };
  }
  const { rows } = await query.count.execute(db);
  return { querySize: rows[0].n };
}
