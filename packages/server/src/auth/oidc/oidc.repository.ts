import { sql } from "kysely";
import type { Db } from "../../db/connection.ts";
import type { RoleGrant } from "./role-mapping.ts";

/** A sign-in under way, as the callback needs it. */
export interface PendingLogin {
  state: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

/** A user as a company sign-in sees it. */
export interface OidcUserRow {
  user_id: number;
  username: string;
  is_deleted: boolean;
  isadmin: boolean;
  issuperadmin: boolean;
  isdev: boolean;
  /** The flags the group mapping set, so that only those are taken back. */
  oidc_isadmin: boolean;
  oidc_isdev: boolean;
}

/** The granted_by of the roles the group mapping grants. */
export const OIDC_GRANTOR = "oidc";

export async function insertLogin(
  db: Db,
  login: PendingLogin & { loginHash: string; minutes: number },
): Promise<void> {
  await sql`insert into app.oidc_logins (login_hash, state, nonce, code_verifier, return_to, expires_at)
    values (${login.loginHash}, ${login.state}, ${login.nonce}, ${login.codeVerifier},
            ${login.returnTo}, now() + make_interval(mins => ${login.minutes}))`.execute(db);
}

export async function deleteExpiredLogins(db: Db): Promise<void> {
  await sql`delete from app.oidc_logins where expires_at <= now()`.execute(db);
}

/** Deletes the sign-in and answers it when it has not expired: a state can be used once only. */
export async function takeLogin(db: Db, loginHash: string): Promise<PendingLogin | undefined> {
  const { rows } = await sql<PendingLogin & { live: boolean }>`
    delete from app.oidc_logins where login_hash = ${loginHash}
    returning state, nonce, code_verifier as "codeVerifier", return_to as "returnTo",
      expires_at > now() as live`.execute(db);
  const row = rows[0];
  if (!row?.live) return undefined;
  return {
    state: row.state,
    nonce: row.nonce,
    codeVerifier: row.codeVerifier,
    returnTo: row.returnTo,
  };
}

const USER_COLUMNS = sql`user_id, username, is_deleted, isadmin, issuperadmin, isdev, oidc_isadmin, oidc_isdev`;

/** The user (active or removed) a provider account signed in as before. */
export async function findUserBySubject(db: Db, subject: string): Promise<OidcUserRow | undefined> {
  const { rows } = await sql<OidcUserRow>`select ${USER_COLUMNS} from app.users
    where oidc_subject = ${subject}`.execute(db);
  return rows[0];
}

export async function insertOidcUser(
  db: Db,
  user: { subject: string; username: string; name: string; email: string; passwordHash: string },
): Promise<OidcUserRow> {
  const { rows } = await sql<OidcUserRow>`
    insert into app.users (username, name, email, password_hash, oidc_subject)
    values (${user.username}, ${user.name}, ${user.email}, ${user.passwordHash}, ${user.subject})
    returning ${USER_COLUMNS}`.execute(db);
  return rows[0];
}

export async function updateNameAndEmail(
  db: Db,
  userId: number,
  claims: { name: string; email: string },
): Promise<void> {
  await sql`update app.users set name = ${claims.name}, email = ${claims.email}, updated_at = now()
    where user_id = ${userId} and (name, email) is distinct from (${claims.name}, ${claims.email})`.execute(
    db,
  );
}

export async function setFlags(
  db: Db,
  userId: number,
  flags: Pick<OidcUserRow, "isadmin" | "isdev" | "oidc_isadmin" | "oidc_isdev">,
): Promise<void> {
  await sql`update app.users set isadmin = ${flags.isadmin}, isdev = ${flags.isdev},
      oidc_isadmin = ${flags.oidc_isadmin}, oidc_isdev = ${flags.oidc_isdev}, updated_at = now()
    where user_id = ${userId}`.execute(db);
}

/** The roles the group mapping granted this user (not those granted by hand). */
export async function rolesGrantedByMapping(db: Db, userId: number): Promise<RoleGrant[]> {
  const { rows } = await sql<RoleGrant>`select context, role from app.user_roles
    where user_id = ${userId} and granted_by = ${OIDC_GRANTOR}`.execute(db);
  return rows;
}

export async function revokeMappedRoles(
  db: Db,
  userId: number,
  roles: readonly RoleGrant[],
): Promise<void> {
  for (const r of roles) {
    await sql`delete from app.user_roles where user_id = ${userId} and context = ${r.context}
      and role = ${r.role} and granted_by = ${OIDC_GRANTOR}`.execute(db);
  }
}

/** Remembers the ID token of a session opened by a company sign-in (the hint for the provider's sign-out). */
export async function insertOidcSession(
  db: Db,
  sessionHash: string,
  idToken: string,
): Promise<void> {
  await sql`insert into app.oidc_sessions (session_hash, id_token)
    values (${sessionHash}, ${idToken})`.execute(db);
}

export async function findIdToken(db: Db, sessionHash: string): Promise<string | undefined> {
  const { rows } = await sql<{ id_token: string }>`select id_token from app.oidc_sessions
    where session_hash = ${sessionHash}`.execute(db);
  return rows[0]?.id_token;
}
