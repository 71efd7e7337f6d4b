import { type Kysely, sql } from "kysely";

/** Publish runs: who, when, where to, what changed; a fresh 'running' row is the shared busy state. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.publish_runs (
    run_id bigint generated always as identity primary key,
    started_by text not null,
    started_at timestamptz not null default now(),
    heartbeat_at timestamptz not null default now(),
    finished_at timestamptz,
    target text not null,
    outcome text not null default 'running' check (outcome in ('running', 'succeeded', 'failed')),
    message text,
    pages_written integer,
    pages_unchanged integer,
    pages_removed integer
  )`.execute(db);
  await sql`create index publish_runs_running_idx on app.publish_runs (heartbeat_at) where outcome = 'running'`.execute(
    db,
  );
}
