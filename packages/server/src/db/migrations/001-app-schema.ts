import { type Kysely, sql } from "kysely";

/** The fixed `app` schema: users, sessions, roles, login failures, events and per-type counts. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create schema if not exists app`.execute(db);
  await sql`create table app.users (
    user_id bigint generated always as identity primary key,
    username text not null,
    name text not null,
    email text not null,
    password_hash text not null,
    isadmin boolean not null default false,
    issuperadmin boolean not null default false,
    isdev boolean not null default false,
    is_deleted boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`.execute(db);
  // A removed user keeps its row (history stays attributed) and its name stays taken.
  await sql`create unique index users_username_key on app.users (lower(username))`.execute(db);

  await sql`create table app.sessions (
    session_hash text primary key,
    user_id bigint not null references app.users (user_id),
    created_at timestamptz not null default now(),
    last_seen_at timestamptz not null default now(),
    expires_at timestamptz not null
  )`.execute(db);
  await sql`create index sessions_user_idx on app.sessions (user_id)`.execute(db);

  await sql`create table app.user_roles (
    user_id bigint not null references app.users (user_id),
    context text not null,
    role text not null,
    granted_by text not null,
    granted_at timestamptz not null default now(),
    primary key (user_id, context, role)
  )`.execute(db);

  await sql`create table app.login_failures (
    failure_id bigint generated always as identity primary key,
    username text not null,
    ip text not null,
    failed_at timestamptz not null default now()
  )`.execute(db);
  await sql`create index login_failures_lookup_idx on app.login_failures (lower(username), ip, failed_at)`.execute(
    db,
  );
  await sql`create index login_failures_ip_idx on app.login_failures (ip, failed_at)`.execute(db);

  await sql`create table app.events (
    event_id bigint generated always as identity primary key,
    context text not null,
    entity_type text not null,
    entity_key_id bigint not null,
    action text not null check (action in ('Add','Change','Missing','Create','Update','Amend','Delete')),
    status text not null check (status in ('pending','approved','rejected','superseded')),
    old_values jsonb,
    new_values jsonb,
    base_version integer,
    source text not null,
    created_by text not null,
    created_at timestamptz not null default now(),
    decided_by text,
    decided_at timestamptz,
    effective_from timestamptz not null default now()
  )`.execute(db);
  await sql`create index events_record_idx on app.events (context, entity_type, entity_key_id, event_id desc)`.execute(
    db,
  );
  await sql`create index events_pending_idx on app.events (context, entity_type, entity_key_id)
    where status = 'pending'`.execute(db);

  await sql`create table app.type_counts (
    context text not null,
    entity_type text not null,
    row_count bigint not null default 0,
    primary key (context, entity_type)
  )`.execute(db);
}
