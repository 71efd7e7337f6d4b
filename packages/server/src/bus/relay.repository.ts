import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { FeedPosition } from "../feed/feed.repository.ts";

/**
 * Places the relay at the change feed's end, the first time only: the bus carries the changes
 * approved from then on, whether the broker can be reached yet or not.
 */
export async function placeRelay(db: Db): Promise<void> {
  await sql`insert into app.bus_relay (position, event_id)
    select coalesce(last.position, 0), coalesce((select max(e.event_id) from app.events e
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
  instance: string,
  leaseSeconds: number,
): Promise<FeedPosition | undefined> {
  const { rows } = await sql<{ position: string; event_id: string }>`
    update app.bus_relay set claimed_by = ${instance},
      claimed_until = now() + make_interval(secs => ${leaseSeconds})
    where claimed_by = ${instance} or claimed_until is null or claimed_until < now()
    returning position, event_id`.execute(db);
  const row = rows[0];
  return row ? { position: Number(row.position), eventId: Number(row.event_id) } : undefined;
}

/** Moves the relay past the changes it published, if `instance` still holds it. */
export async function advanceRelay(db: Db, instance: string, to: FeedPosition): Promise<void> {
  await sql`update app.bus_relay set position = ${to.position}, event_id = ${to.eventId}
    where claimed_by = ${instance}`.execute(db);
}

/** Gives the relay up, for another instance to take at once (a clean stop). */
export async function releaseRelay(db: Db, instance: string): Promise<void> {
  await sql`update app.bus_relay set claimed_by = null, claimed_until = null
    where claimed_by = ${instance}`.execute(db);
}
