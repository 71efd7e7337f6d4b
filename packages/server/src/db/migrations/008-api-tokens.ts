import { type Kysely, sql } from "kysely";

/** Personal access tokens for scripts and pipelines: only a hash of each secret is kept. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.api_tokens (
    token_id bigint generated always as identity primary key,
    user_id bigint not null references app.users (user_id),
    name text not null,
    scope text not null check (scope in ('read', 'write')),
    token_hash text not null unique,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null,
    last_used_at timestamptz,
    revoked_at timestamptz,
    revoked_by text
  )`.execute(db);
  await sql`create index api_tokens_user_idx on app.api_tokens (user_id)`.execute(db);
}
