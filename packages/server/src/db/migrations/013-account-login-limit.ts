import { type Kysely, sql } from "kysely";

/**
 * The per-account sign-in limit (auth/login-throttle.ts). `login_account_streaks`: one row per
 * typed username (lower-cased, whether or not such a user exists), counted by one upsert per attempt
 * so that parallel attempts each get their own number. `login_known_addresses`: where each user
 * last signed in with a password, so that a lock an attacker causes does not keep the user out.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.login_account_streaks (
    username text primary key,
    attempts integer not null,
    locked_until timestamptz,
    last_attempt_at timestamptz not null
  )`.execute(db);
  await sql`create index login_account_streaks_last_idx on app.login_account_streaks (last_attempt_at)`.execute(
    db,
  );
  await sql`create table app.login_known_addresses (
    user_id bigint not null references app.users (user_id) on delete cascade,
    ip text not null,
    last_signed_in_at timestamptz not null default now(),
    primary key (user_id, ip)
  )`.execute(db);
}
