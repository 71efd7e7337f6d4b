import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { FeedPosition } from "./feed.repository.ts";

/**
 * What follows the change feed inside the server, each with its own place in it: the event bus
 * (bus/) and the webhooks' `changes.approved` events (webhooks/).
 */
export type FeedRelay = "bus" | "webhooks";

/**
 * Places the relay at the change feed's end, the first time only: it carries the changes approved
 * from then on.
 */
export async function placeRelay(db: Db, relay: FeedRelay): Promise<void> {
  await sql`insert into app.feed_relays (relay, position, event_id)
    select ${relay}, coalesce(last.position, 0), coalesce((select max(e.event_id) from app.events e
        where e.approved_xid = last.xid and e.status = 'approved'), 0)
    from (select 1) one
      left join lateral (select position, xid from app.feed_commits order by position desc limit 1) last
        on true
    on conflict do nothing`.execute(db);
}

/**
 * Takes the relay for `instance` for `leaseSeconds` (or keeps it), unless another instance holds
 * it: answers where the relay stands, or undefined.
 */
export async function claimRelay(
  db: Db,
  relay: FeedRelay,
  instance: string,
  leaseSeconds: number,
): Promise<FeedPosition | undefined> {
  const { rows } = await sql<{ position: string; event_id: string }>`
    update app.feed_relays set claimed_by = ${instance},
      claimed_until = now() + make_interval(secs => ${leaseSeconds})
    where relay = ${relay}
      and (claimed_by = ${instance} or claimed_until is null or claimed_until < now())
    returning position, event_id`.execute(db);
  const row = rows[0];
  return row ? { position: Number(row.position), eventId: Number(row.event_id) } : undefined;
}

/** Moves the relay past what it carried, if `instance` still holds it; answers whether it did. */
export async function advanceRelay(
  db: Db,
  relay: FeedRelay,
  instance: string,
  to: FeedPosition,
): Promise<boolean> {
  const result =
    await sql`update app.feed_relays set position = ${to.position}, event_id = ${to.eventId}
    where relay = ${relay} and claimed_by = ${instance}`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** Gives the relay up, for another instance to take at once (a clean stop). */
export async function releaseRelay(db: Db, relay: FeedRelay, instance: string): Promise<void> {
  await sql`update app.feed_relays set claimed_by = null, claimed_until = null
    where relay = ${relay} and claimed_by = ${instance}`.execute(db);
}
