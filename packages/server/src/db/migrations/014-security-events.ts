import { type Kysely, sql } from "kysely";

/**
 * The security audit trail: sign-ins, changes of users, roles, tokens and self-approval settings,
 * each with who, when and from where. Rows are only added, and removed by the retention sweep
 * once older than the configured number of days (hence the index on the time).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.security_events (
    event_id bigint generated always as identity primary key,
    occurred_at timestamptz not null default now(),
    kind text not null,
    actor text,
    subject text,
    origin text,
    detail jsonb not null default '{}'::jsonb
  )`.execute(db);
  await sql`create index security_events_time_idx on app.security_events (occurred_at)`.execute(db);
}
