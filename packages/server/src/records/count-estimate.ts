import type { EntityQuery } from "@ledgerline/contract";
import { CompiledQuery, type RawBuilder } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ListQuery } from "./list-query.ts";

interface PlanNode {
  "Node Type": string;
  "Plan Rows": number;
  Plans?: PlanNode[];
}

/**
 * The planner's estimate of the rows a list holds: the rows under its page's Limit, which are all the
 * rows that match (the same conditions as its count). Planning only; nothing is read.
 */
async function plannedRows(db: Db, page: RawBuilder<unknown>): Promise<number> {
  const compiled = page.compile(db);
  const { rows } = await db.executeQuery<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
  );
  const plan = rows[0]["QUERY PLAN"][0].Plan;
  const matching = plan["Node Type"] === "Limit" && plan.Plans ? plan.Plans[0] : plan;
  return Math.round(matching["Plan Rows"]);
}

/** Whether a list's count may be estimated: a filtered list of now, not a pending list or one record. */
function mayEstimate(q: EntityQuery, query: ListQuery): boolean {
  return (
    query.count !== null &&
    !q.exactCount &&
    !q.requirePending &&
    q.asOf === undefined &&
    q.entityKeyID === undefined
  );
}

/**
 * The count of a filtered list: exact, or, when the planner expects more than `estimateAbove` rows,
 * that estimate (counting them would read every matching row; on 10,000,000 records a filter
 * matching a million takes seconds). An estimate at or below the threshold is counted exactly.
 */
export async function listCount(
  db: Db,
  q: EntityQuery,
  query: ListQuery & { count: RawBuilder<{ n: number }> },
  estimateAbove: number | undefined,
): Promise<{ querySize: number; querySizeEstimated?: true }> {
  if (estimateAbove !== undefined && mayEstimate(q, query)) {
    const planned = await plannedRows(db, query.page);
    if (planned > estimateAbove) return { querySize: planned, querySizeEstimated: true };
  }
  const { rows } = await query.count.execute(db);
  return { querySize: rows[0].n };
}
