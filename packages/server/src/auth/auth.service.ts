import { createHash, randomBytes } from "node:crypto";
import type { Profile } from "@ledgerline/contract";
import { findActiveUser } from "../admin/users.repository.ts";
import type { Db } from "../db/connection.ts";
import { UnauthorizedError } from "../errors.ts";
import { assertLoginAllowed, clearLoginFailures, recordLoginFailure } from "./login-throttle.ts";
import { verifyAgainstDummy, verifyPassword } from "./password.ts";
import * as sessions from "./sessions.repository.ts";

export interface SessionSettings {
  idleMinutes: number;
  maxHours: number;
}

/** The signed-in caller of a request. */
export type CurrentUser = sessions.SessionUser;

const INVALID_LOGIN = "Invalid username or password";
// Writing last_seen_at on every request would turn every read into a write.
const TOUCH_AFTER_MS = 60_000;

function hashSessionId(sessionId: string): string {
  return createHash("sha256").update(sessionId).digest("hex");
}

export function profileOf(
  user: Pick<CurrentUser, "name" | "username" | "email" | "isadmin" | "isdev" | "issuperadmin">,
): Profile {
  return {
    name: user.name,
    username: user.username,
    email: user.email,
    isadmin: user.isadmin,
    isdev: user.isdev,
    issuperadmin: user.issuperadmin,
  };
}

/** Checks the credentials and opens a new session; the same answer and timing for an unknown user as for a wrong password. */
export async function login(
  db: Db,
  settings: SessionSettings,
  credentials: { username: string; password: string; ip: string },
): Promise<{ sessionId: string; profile: Profile }> {
  const { username, password, ip } = credentials;
  await assertLoginAllowed(db, username, ip);
  const user = await findActiveUser(db, username);
  const ok = user
    ? await verifyPassword(user.password_hash, password)
    : await verifyAgainstDummy(password);
  if (!user || !ok) {
    await recordLoginFailure(db, username, ip);
    throw new UnauthorizedError(INVALID_LOGIN);
  }
  const sessionId = randomBytes(32).toString("base64url");
  await db.transaction().execute(async (tx) => {
    await sessions.insertSession(tx, {
      sessionHash: hashSessionId(sessionId),
      userId: user.user_id,
      maxHours: settings.maxHours,
    });
    await clearLoginFailures(tx, username, ip);
    await sessions.deleteExpiredSessions(tx, settings.idleMinutes);
  });
  return { sessionId, profile: profileOf({ ...user, username: user.username }) };
}

/** The user of a live session id, extending its idle deadline; undefined when none. */
export async function resolveSession(
  db: Db,
  settings: SessionSettings,
  sessionId: string,
): Promise<CurrentUser | undefined> {
  const user = await sessions.findLiveSession(db, hashSessionId(sessionId), settings.idleMinutes);
  if (user && Date.now() - user.lastSeenAt.getTime() > TOUCH_AFTER_MS)
    await sessions.touchSession(db, user.sessionHash);
  return user;
}

export async function logout(db: Db, sessionId: string): Promise<void> {
  await sessions.deleteSession(db, hashSessionId(sessionId));
}
