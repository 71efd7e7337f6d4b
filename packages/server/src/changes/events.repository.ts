import { type Insertable, type RawBuilder, type Selectable, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { anyId } from "../db/id-array.ts";
import { isoMoment } from "../db/iso-moment.ts";
import type { EventsTable } from "../db/tables.ts";

export type EventRow = Selectable<EventsTable>;
export type EventAction = EventsTable["action"];

export interface NewEvent {
  context: string;
  entityType: string;
  entityKeyId: number;
  action: EventAction;
  status: "pending" | "approved";
  oldValues: Record<string, unknown> | null;
  newValues: Record<string, unknown> | null;
  baseVersion: number | null;
  source: string;
  user: string;
}

function toRow(e: NewEvent): Insertable<EventsTable> {
  const decided = e.status === "approved";
  return {
    context: e.context,
    entity_type: e.entityType,
    entity_key_id: e.entityKeyId,
    action: e.action,
    status: e.status,
    old_values: e.oldValues === null ? null : JSON.stringify(e.oldValues),
    new_values: e.newValues === null ? null : JSON.stringify(e.newValues),
    base_version: e.baseVersion,
    source: e.source,
    created_by: e.user,
    decided_by: decided ? e.user : null,
    decided_at: decided ? new Date() : null,
  };
}

/** Writes one event and answers its id. */
export async function insertEvent(db: Db, event: NewEvent): Promise<number> {
  const row = await db
    .insertInto("app.events")
    .values(toRow(event))
    .returning("event_id")
    .executeTakeFirstOrThrow();
  return row.event_id;
}

/** The pending events of these records (a record has at most one). */
export async function pendingEventsOf(
  db: Db,
  context: string,
  entityType: string,
  keyIds: readonly number[],
): Promise<EventRow[]> {
  if (keyIds.length === 0) return [];
  return db
    .selectFrom("app.events")
    .selectAll()
    .where("context", "=", context)
    .where("entity_type", "=", entityType)
    .where("entity_key_id", "=", anyId(keyIds))
    .where("status", "=", "pending")
    .orderBy("event_id")
    .execute();
}

/** Whether `user` proposed an event (of app.events, or a selection of it): its author or an earlier one. */
export function proposedBy(user: string): RawBuilder<boolean> {
  return sql<boolean>`(created_by = ${user} or ${user} = any(coalesce(earlier_proposers, '{}')))`;
}

/** Replaces the values of a pending event (an Amend keeps the event's id). */
export async function amendPendingEvent(
  db: Db,
  eventId: number,
  change: {
    action: EventAction;
    oldValues: Record<string, unknown> | null;
    newValues: Record<string, unknown> | null;
    user: string;
  },
): Promise<void> {
  await db
    .updateTable("app.events")
    .set({
      action: change.action,
      old_values: change.oldValues === null ? null : JSON.stringify(change.oldValues),
      new_values: change.newValues === null ? null : JSON.stringify(change.newValues),
      // The author it had joins the earlier ones, which never hold the author (none may approve it).
      earlier_proposers: sql<string[]>`case when created_by = ${change.user} then earlier_proposers
        else array_append(array_remove(coalesce(earlier_proposers, '{}'), ${change.user}), created_by) end`,
      created_by: change.user,
      created_at: new Date(),
    })
    .where("event_id", "=", eventId)
    .where("status", "=", "pending")
    .execute();
}

/** Marks pending events as replaced by newer ones. */
export async function supersedeEvents(
  db: Db,
  eventIds: readonly number[],
  user: string,
): Promise<void> {
  if (eventIds.length === 0) return;
  await db
    .updateTable("app.events")
    .set({ status: "superseded", decided_by: user, decided_at: new Date() })
    .where("event_id", "=", anyId(eventIds))
    .where("status", "=", "pending")
    .execute();
}

/** A record's events, newest first. */
export async function eventsOfRecord(
  db: Db,
  context: string,
  entityType: string,
  keyId: number,
): Promise<(EventRow & { decided_moment: string | null })[]> {
  return db
    .selectFrom("app.events")
    .selectAll()
    .select(isoMoment("decided_at").as("decided_moment"))
    .where("context", "=", context)
    .where("entity_type", "=", entityType)
    .where("entity_key_id", "=", keyId)
    .orderBy("event_id", "desc")
    .execute();
}
