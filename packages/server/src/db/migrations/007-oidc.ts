import { type Kysely, sql } from "kysely";

/**
 * Company sign-in (OpenID Connect): the provider's subject on users it created or signed in, which
 * flags the group mapping gave (so that only those are taken back), the sign-ins under way (state,
 * nonce and PKCE verifier kept here, not in a process, so that any instance can finish them), and
 * the ID token of each session opened this way (the hint for the provider's sign-out).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // "<issuer> <sub>": a subject is only unique within its issuer.
  await sql`alter table app.users add column oidc_subject text`.execute(db);
  await sql`alter table app.users add column oidc_isadmin boolean not null default false`.execute(
    db,
  );
  await sql`alter table app.users add column oidc_isdev boolean not null default false`.execute(db);
  await sql`create unique index users_oidc_subject_key on app.users (oidc_subject)`.execute(db);

  // Keyed by the hash of the id in the browser's cookie; a row is deleted when the callback reads it.
  await sql`create table app.oidc_logins (
    login_hash text primary key,
    state text not null,
    nonce text not null,
    code_verifier text not null,
    return_to text not null,
    created_at timestamptz not null default now(),
    expires_at timestamptz not null
  )`.execute(db);
  await sql`create index oidc_logins_expiry_idx on app.oidc_logins (expires_at)`.execute(db);

  await sql`create table app.oidc_sessions (
    session_hash text primary key references app.sessions (session_hash) on delete cascade,
    id_token text not null
  )`.execute(db);
}
