import { CompiledQuery, type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";

/** The roles a user holds, by context name. */
export type HeldRoles = ReadonlyMap<string, ReadonlySet<string>>;

export interface SessionUser {
  sessionHash: string;
  userId: number;
  username: string;
  name: string;
  email: string;
  isadmin: boolean;
  issuperadmin: boolean;
  isdev: boolean;
  lastSeenAt: Date;
  /** Read with the session, in the same statement, so the rights of a call cost no query of their own. */
  roles: HeldRoles;
  /** The fingerprint of the name, flags and roles above (RIGHTS_FINGERPRINT), for the checks made in statements. */
  fingerprint: string;
}

/**
 * What a caller's rights were read from, as one text: the user's name, flags and roles. A call that
 * reuses rights read before checks, in its own statement, that this text is still the same.
 */
export const RIGHTS_FINGERPRINT = `md5(concat_ws('|', u.username, u.isadmin, u.issuperadmin, u.isdev,
  (select string_agg(r.context || ':' || r.role, ',' order by r.context, r.role)
     from app.user_roles r where r.user_id = u.user_id)))`;

/** The columns of the user `u` every call needs: who, the three flags, the roles held, their fingerprint. */
export const CALLER_COLUMNS = `u.user_id as "userId", u.username, u.name, u.email, u.isadmin,
  u.issuperadmin, u.isdev,
  coalesce((select json_agg(json_build_array(r.context, r.role)) from app.user_roles r
            where r.user_id = u.user_id), '[]') as roles,
  ${RIGHTS_FINGERPRINT} as fingerprint`;

/** The `[context, role]` pairs of CALLER_COLUMNS' roles, by context. */
function heldRoles(pairs: readonly (readonly [string, string])[]): HeldRoles {
  const held = new Map<string, Set<string>>();
  for (const [context, role] of pairs) {
    const roles = held.get(context) ?? new Set<string>();
    roles.add(role);
    held.set(context, roles);
  }
  return held;
}

export async function insertSession(
  db: Db,
  session: { sessionHash: string; userId: number; maxHours: number },
): Promise<void> {
  await db
    .insertInto("app.sessions")
    .values({
      session_hash: session.sessionHash,
      user_id: session.userId,
      expires_at: sql<Date>`now() + make_interval(hours => ${session.maxHours})`,
    })
    .execute();
}

/** A session `s` of user `u` is live while the user exists and the session has not expired. */
const STANDING = "not u.is_deleted and s.expires_at > now()";

// Every call runs this statement; its text is made once, so no call pays for building it.
const LIVE_SESSION = `select s.session_hash as "sessionHash", s.last_seen_at as "lastSeenAt",
    ${CALLER_COLUMNS}
  from app.sessions s join app.users u on u.user_id = s.user_id
  where s.session_hash = $1 and ${STANDING}
    and s.last_seen_at > now() - make_interval(mins => $2)`;

/**
 * True while the session is live (LIVE_SESSION's conditions) and its user's rights are still those
 * of `fingerprint`: the condition a statement carries when it runs for a caller read by an earlier
 * call, so that a logout, a removal or a role change elsewhere stops it at once.
 */
export function sessionStillSql(
  sessionHash: string,
  idleMinutes: number,
  fingerprint: string,
): RawBuilder<boolean> {
  return sql<boolean>`exists (select from app.sessions s join app.users u on u.user_id = s.user_id
    where s.session_hash = ${sessionHash} and ${sql.raw(STANDING)}
      and s.last_seen_at > now() - make_interval(mins => ${idleMinutes})
      and ${sql.raw(RIGHTS_FINGERPRINT)} = ${fingerprint})`;
}

/** A row with CALLER_COLUMNS, as the driver answers it. */
export type CallerRow<T extends SessionUser> = Omit<T, "roles"> & { roles: [string, string][] };

/** The caller of a row with CALLER_COLUMNS. */
export function callerOf<T extends SessionUser>(row: CallerRow<T>): T {
  return { ...row, roles: heldRoles(row.roles) } as T;
}

/** The live session with this hash, its user and the user's roles, or undefined when unknown, idle too long or expired. */
export async function findLiveSession(
  db: Db,
  sessionHash: string,
  idleMinutes: number,
): Promise<SessionUser | undefined> {
  const { rows } = await db.executeQuery<CallerRow<SessionUser>>(
    CompiledQuery.raw(LIVE_SESSION, [sessionHash, idleMinutes]),
  );
  return rows[0] && callerOf(rows[0]);
}

export async function touchSession(db: Db, sessionHash: string): Promise<void> {
  await db
    .updateTable("app.sessions")
    .set({ last_seen_at: sql<Date>`now()` })
    .where("session_hash", "=", sessionHash)
    .execute();
}

/** Ends a session; answers the username it belonged to, or undefined when there was none. */
export async function deleteSession(db: Db, sessionHash: string): Promise<string | undefined> {
  const { rows } = await sql<{ username: string }>`
    delete from app.sessions s using app.users u
    where s.session_hash = ${sessionHash} and u.user_id = s.user_id
    returning u.username`.execute(db);
  return rows[0]?.username;
}

/** Ends every session of a user, except optionally one (the caller's own). */
export async function deleteSessionsOfUser(
  db: Db,
  userId: number,
  keepHash?: string,
): Promise<void> {
  let query = db.deleteFrom("app.sessions").where("user_id", "=", userId);
  if (keepHash) query = query.where("session_hash", "!=", keepHash);
  await query.execute();
}

export async function deleteExpiredSessions(db: Db, idleMinutes: number): Promise<void> {
  await db
    .deleteFrom("app.sessions")
    .where((eb) =>
      eb.or([
        eb("expires_at", "<=", sql<Date>`now()`),
        eb("last_seen_at", "<=", sql<Date>`now() - make_interval(mins => ${idleMinutes})`),
      ]),
    )
    .execute();
}
