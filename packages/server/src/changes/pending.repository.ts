import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { lockTypeShared } from "../ingest/ingest-lock.repository.ts";
import type { EventRow } from "./events.repository.ts";

/** What deciding on a pending event needs of it; its values stay in the database. */
export type PendingEventRef = Pick<
  EventRow,
  "event_id" | "entity_key_id" | "action" | "base_version" | "created_by"
>;

/** Which pending events to decide on: explicit ids, or every pending event of one upload. */
export type EventSelection = { entityEventIds: number[] } | { uploadId: number };

/**
 * The pending events of a type matching the selection, locked for the transaction, oldest first,
 * once no ingest of the type is under way (lockTypeShared).
 */
export async function lockPendingEvents(
  db: Db,
  context: string,
  entityType: string,
  selection: EventSelection,
): Promise<PendingEventRef[]> {
  await lockTypeShared(db, { context: { name: context }, type: { name: entityType } });
  const match =
    "uploadId" in selection
      ? sql`source = ${`upload:${selection.uploadId}`}`
      : sql`event_id = any(${selection.entityEventIds}::bigint[])`;
  const { rows } = await sql<PendingEventRef>`
    select event_id, entity_key_id, action, base_version, created_by from app.events
    where context = ${context} and entity_type = ${entityType} and status = 'pending' and ${match}
    order by event_id for update`.execute(db);
  return rows;
}

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

/** Marks events rejected; proposed new records among them are discontinued so they never show. */
export async function rejectEvents(
  db: Db,
  schema: string,
  entityType: string,
  events: readonly PendingEventRef[],
  user: string,
): Promise<void> {
  if (events.length === 0) return;
  const proposed = events
    .filter((e) => e.action === "Create" || e.action === "Add")
    .map((e) => e.entity_key_id);
  if (proposed.length > 0) {
    await sql`update ${sql.table(`${schema}.${entityType}`)} set is_deleted = true, updated_at = now(), updated_by = ${user}
      where entity_key_id = any(${proposed}::bigint[]) and is_pending_new`.execute(db);
  }
  await sql`update app.events set status = 'rejected', decided_by = ${user}, decided_at = now()
    where event_id = any(${events.map((e) => e.event_id)}::bigint[])`.execute(db);
}
