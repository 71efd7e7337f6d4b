import { type Kysely, sql } from "kysely";

/**
 * Notifications: the outbox (messages written in the transaction of the change that causes them,
 * delivered later by the sender), each user's switched-off kinds, and the digests of web changes
 * that are due.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.outbox (
    message_id bigint generated always as identity primary key,
    kind text not null,
    user_id bigint not null references app.users (user_id),
    recipient text not null,
    subject text not null,
    text_body text not null,
    html_body text not null,
    status text not null default 'queued' check (status in ('queued', 'sent', 'failed')),
    attempts integer not null default 0,
    next_attempt_at timestamptz not null default now(),
    claimed_until timestamptz,
    last_error text,
    smtp_response text,
    created_at timestamptz not null default now(),
    sent_at timestamptz
  )`.execute(db);
  await sql`create index outbox_due_idx on app.outbox (next_attempt_at) where status = 'queued'`.execute(
    db,
  );
  await sql`create index outbox_failed_idx on app.outbox (message_id) where status = 'failed'`.execute(
    db,
  );

  // A row switches a kind off (or on again) for a user; no row means on.
  await sql`create table app.notification_settings (
    user_id bigint not null references app.users (user_id),
    kind text not null,
    enabled boolean not null,
    primary key (user_id, kind)
  )`.execute(db);

  // One row per type with web changes to tell its approvers about, due at due_at; last_sent_at
  // keeps digests of a type at least the configured interval apart.
  await sql`create table app.web_digests (
    context text not null,
    entity_type text not null,
    due_at timestamptz,
    last_sent_at timestamptz,
    primary key (context, entity_type)
  )`.execute(db);
}
