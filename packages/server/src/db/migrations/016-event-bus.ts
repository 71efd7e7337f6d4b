import { type Kysely, sql } from "kysely";

/**
 * Where the event bus's relay stands in the change feed (bus/): the last change it published, and
 * which instance relays now, until when (one at a time; another takes over when the lease ends).
 * The row is made when the relay first runs, at the feed's end then.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.bus_relay (
    only_row boolean primary key default true check (only_row),
    position bigint not null,
    event_id bigint not null,
    claimed_by text,
    claimed_until timestamptz
  )`.execute(db);
}
