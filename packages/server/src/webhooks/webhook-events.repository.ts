import type { WebhookKind } from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { wants } from "./subscriptions.repository.ts";

/** Something downstream systems hear of: its application, kind, the types it concerns and its data. */
export interface Announcement {
  context: string;
  kind: WebhookKind;
  /** The types it concerns (none: the whole application). */
  entityTypes: readonly string[];
  data: Record<string, unknown>;
  /** When it happened; now when not given. */
  at?: Date;
}

/**
 * In the transaction of what happened: records the event and queues one delivery to every
 * subscription that wants it (paused ones too: they receive it when resumed), in one statement.
 * The body is the Standard Webhooks payload `{type, timestamp, data}`, fixed here so that every
 * try sends the same bytes. Answers how many deliveries were queued.
 */
export async function announce(db: Db, announcement: Announcement): Promise<number> {
  const { context, kind, entityTypes } = announcement;
  const payload = {
    type: kind,
    timestamp: (announcement.at ?? new Date()).toISOString(),
    data: { context, ...announcement.data },
  };
  const { rows } = await sql<{ queued: number }>`
    with event as (
      insert into app.webhook_events (context, kind, entity_types, payload)
      values (${context}, ${kind}, ${[...entityTypes]}::text[], ${JSON.stringify(payload)}::jsonb)
      returning event_id),
    queued as (
      insert into app.webhook_deliveries (subscription_id, event_id)
      select s.subscription_id, event.event_id from app.webhook_subscriptions s, event
      where ${wants(context, kind, entityTypes)}
      returning 1)
    select count(*)::int as queued from queued`.execute(db);
  return rows[0].queued;
}

/** An event as the event bus publishes it. */
export interface BusEvent {
  event_id: number;
  context: string;
  kind: WebhookKind;
  body: string;
}

/**
 * The events the bus has not taken yet since it first ran, oldest first (`changes.approved`
 * never: the bus carries each change itself). Only the instance holding the bus's relay reads
 * them.
 */
export async function eventsForTheBus(db: Db, limit: number): Promise<BusEvent[]> {
  const { rows } = await sql<BusEvent>`
    select event_id::float8 as event_id, context, kind, payload::text as body
    from app.webhook_events
    where bus_published_at is null and kind <> 'changes.approved'
      and created_at >= (select placed_at from app.feed_relays where relay = 'bus')
    order by event_id limit ${limit}`.execute(db);
  return rows;
}

export async function markOnTheBus(db: Db, eventId: number): Promise<void> {
  await sql`update app.webhook_events set bus_published_at = now()
    where event_id = ${eventId}`.execute(db);
}
