import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { entityTable } from "../records/entity-table.ts";
import { SELECTED } from "./selected-events.ts";

/** Per type and action, how many events are pending in a context. */
export async function pendingCounts(
  db: Db,
  context: string,
): Promise<{ entity_type: string; action: string; n: number }[]> {
  const { rows } = await sql<{ entity_type: string; action: string; n: number }>`
    select entity_type, action, count(*)::int as n from app.events
    where context = ${context} and status = 'pending' group by entity_type, action`.execute(db);
  return rows;
}

/**
 * Marks the selected events (selectPendingEvents) rejected; proposed new records among them are
 * discontinued so they never show.
 */
export async function rejectEvents(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  user: string,
): Promise<void> {
  await sql`update ${entityTable(context, type)} t set is_deleted = true, updated_at = now(), updated_by = ${user}
    from ${SELECTED} s
    where s.action in ('Create', 'Add') and t.entity_key_id = s.entity_key_id and t.is_pending_new`.execute(
    tx,
  );
  // By an array of ids, as applyEvents marks approved events.
  await sql`update app.events e set status = 'rejected', decided_by = ${user}, decided_at = now()
    where e.event_id = any(array(select s.event_id from ${SELECTED} s))`.execute(tx);
}
