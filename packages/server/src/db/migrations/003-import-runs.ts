import { type Kysely, sql } from "kysely";

/** Metadata import runs (manual and scheduled) and the claims that make a scheduled run happen once. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.import_runs (
    run_id bigint generated always as identity primary key,
    metadata_source_id bigint not null,
    trigger text not null check (trigger in ('manual', 'schedule')),
    started_by text not null,
    started_at timestamptz not null default now(),
    finished_at timestamptz,
    outcome text not null default 'running' check (outcome in ('running', 'succeeded', 'failed')),
    message text,
    counts jsonb
  )`.execute(db);
  await sql`create index import_runs_source_idx on app.import_runs (metadata_source_id, run_id desc)`.execute(
    db,
  );
  // One row per (source, scheduled time): the instance that inserts it runs the import.
  await sql`create table app.schedule_claims (
    metadata_source_id bigint not null,
    scheduled_for timestamptz not null,
    claimed_by text not null,
    claimed_at timestamptz not null default now(),
    primary key (metadata_source_id, scheduled_for)
  )`.execute(db);
}
