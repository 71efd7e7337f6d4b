import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

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

/** The live session with this hash and its user, or undefined when unknown, idle too long or expired. */
export async function findLiveSession(
  db: Db,
  sessionHash: string,
  idleMinutes: number,
): Promise<SessionUser | undefined> {
  const row = await db
    .selectFrom("app.sessions as s")
    .innerJoin("app.users as u", "u.user_id", "s.user_id")
    .select([
      "s.session_hash",
      "s.last_seen_at",
      "u.user_id",
      "u.username",
      "u.name",
      "u.email",
      "u.isadmin",
      "u.issuperadmin",
      "u.isdev",
    ])
    .where("s.session_hash", "=", sessionHash)
    .where("u.is_deleted", "=", false)
    .where("s.expires_at", ">", sql<Date>`now()`)
    .where("s.last_seen_at", ">", sql<Date>`now() - make_interval(mins => ${idleMinutes})`)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    sessionHash: row.session_hash,
    userId: row.user_id,
    username: row.username,
    name: row.name,
    email: row.email,
    isadmin: row.isadmin,
    issuperadmin: row.issuperadmin,
    isdev: row.isdev,
    lastSeenAt: row.last_seen_at,
  };
}

export async function touchSession(db: Db, sessionHash: string): Promise<void> {
  await db
    .updateTable("app.sessions")
    .set({ last_seen_at: sql<Date>`now()` })
    .where("session_hash", "=", sessionHash)
    .execute();
}

export async function deleteSession(db: Db, sessionHash: string): Promise<void> {
  await db.deleteFrom("app.sessions").where("session_hash", "=", sessionHash).execute();
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
