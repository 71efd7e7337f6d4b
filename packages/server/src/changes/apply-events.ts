import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { checkTreeOfApproval } from "../hierarchy/tree-of-approval.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { storedAttributes } from "../model/model.ts";
import { SQL_TYPES } from "../model/sync/ddl.ts";
import { historyNameOf } from "../model/sync/desired.ts";
import { entityTable } from "../records/entity-table.ts";
import { writeWithIndexRebuild } from "../records/index-rebuild.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import {
  type Conflict,
  type Outcome,
  outcomeIn,
  SELECTED,
  type SelectedSummary,
  selectedConflicts,
  withinSelection,
} from "./selected-events.ts";

export interface ApplyResult {
  /** How many events were decided. */
  applied: number;
  conflicts: Conflict[];
  /** Indexes a bulk write dropped, to be built once the transaction commits (afterDecision). */
  indexes?: string[];
}

/** The outcomes (selected-events.ts) of the events an approval applies. */
export const APPLIED: readonly Outcome[] = ["create", "change", "remove"];

/**
 * Applies the selected pending events (selectPendingEvents) to their records and marks them
 * approved, set-based: one statement per kind of change, whatever the number of events. An event
 * whose record changed since it was proposed (version differs from its base version) or is gone is
 * left pending and reported as a conflict. Runs inside the caller's transaction.
 */
export async function applyEvents(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  summary: SelectedSummary,
  user: string,
): Promise<ApplyResult> {
  if (summary.selected === 0) return { applied: 0, conflicts: [] };
  const t = entityTable(context, type);
  const common = sql`version = t.version + 1, updated_at = now(), updated_by = ${user}, last_event_id = e.event_id`;
  const ofOutcome = (outcome: Outcome) =>
    sql`from ${SELECTED} s join app.events e on e.event_id = s.event_id
      where s.outcome = ${outcome} and t.entity_key_id = s.entity_key_id and ${withinSelection(summary)}`;

  const writeValues = async () => {
    if (summary.create > 0)
      await sql`update ${t} t set is_pending_new = false, is_deleted = false, ${assignments(type)}, ${common} ${ofOutcome("create")}`.execute(
        tx,
      );
    // Approving a change of a discontinued record (it reappeared in an upload) brings it back.
    if (summary.change > 0)
      await sql`update ${t} t set is_deleted = false, ${assignments(type)}, ${common} ${ofOutcome("change")}`.execute(
        tx,
      );
  };
  // Removals first: they stay on their pages while the free space there lasts, which rewritten
  // values would otherwise take; without new index entries too, on a type whose indexes hold no
  // flag (a StartsWith index covers is_deleted, see createIndexSql).
  if (summary.remove > 0)
    await sql`update ${t} t set is_deleted = true, ${common} ${ofOutcome("remove")}`.execute(tx);
  const { indexes } = await writeWithIndexRebuild(
    tx,
    context.schema,
    { table: type.name, history: historyNameOf(type.name) },
    summary.create + summary.change,
    writeValues,
  );
  await adjustTypeCount(
    tx,
    context.name,
    type.name,
    summary.create + summary.revived - summary.removed,
  );
  if (summary.create + summary.change > 0) await checkTreeOfApproval(tx, context, type);
  // approved_xid: the change feed's order is this transaction's (db/migrations/015-change-feed.ts).
  // By an array of ids, as before the selection was a table: the primary key's scan sorts it and
  // updates the events in the order they lie (the join with the selection looked slower).
  await sql`update app.events e set status = 'approved', decided_by = ${user}, decided_at = now(),
      approved_xid = pg_current_xact_id()
    where e.event_id = any(array(select s.event_id from ${SELECTED} s where ${outcomeIn("s", APPLIED)}))`.execute(
    tx,
  );
  const applied = summary.create + summary.change + summary.remove;
  return { applied, conflicts: summary.conflicts > 0 ? await selectedConflicts(tx) : [], indexes };
}

/** `col = new value if the event names it, else unchanged`, for every stored attribute. */
function assignments(type: EntityType): RawBuilder<unknown> {
  return sql.join(
    storedAttributes(type).map((a) => {
      const col = sql.id(a.name);
      return sql`${col} = case when e.new_values ? ${a.name} then (e.new_values ->> ${a.name})::${sql.raw(SQL_TYPES[a.dataType])} else t.${col} end`;
    }),
  );
}
