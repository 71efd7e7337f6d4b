import { type Kysely, sql } from "kysely";

/**
 * The count of a type's pending events, by kind of change: an unfiltered pending list counts them
 * on every page, and the pending summary groups them. Every entry of a type's kind holds the same
 * key, so the index stores them deduplicated, a fraction of `events_pending_idx`, whose entries
 * each carry their record's key; counting 1,000,000 pending events reads that much less
 * (docs/performance.md, the approve section).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index events_pending_kind_idx on app.events (context, entity_type, action)
    where status = 'pending'`.execute(db);
}
