import { type Kysely, sql } from "kysely";

/** One row per upload (or check) of a file: who, when, what, and how it ended. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.uploads (
    upload_id bigint generated always as identity primary key,
    context text not null,
    entity_type text not null,
    layout text not null,
    file_name text not null,
    dry_run boolean not null default false,
    created_by text not null,
    created_at timestamptz not null default now(),
    finished_at timestamptz,
    outcome text not null default 'running' check (outcome in ('running', 'succeeded', 'failed')),
    message text,
    counts jsonb
  )`.execute(db);
  await sql`create index uploads_type_idx on app.uploads (context, entity_type, upload_id desc)`.execute(
    db,
  );
  await sql`create index events_source_idx on app.events (source) where status = 'pending'`.execute(
    db,
  );
}
