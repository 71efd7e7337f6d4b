import type { Profile } from "@ledgerline/contract";
import { findActiveUser } from "../admin/users.repository.ts";
import { recordSecurityEvent, recordSignIn } from "../audit/audit.service.ts";
import type { Db } from "../db/connection.ts";
import { ForbiddenError, UnauthorizedError } from "../errors.ts";
import { admitLoginAttempt, loginSucceeded } from "./login-throttle.ts";
import { verifyAgainstDummy, verifyPassword } from "./password.ts";
import { dueForTouch, hashSecret, randomSecret, writeLastUse } from "./secrets.ts";
import * as sessions from "./sessions.repository.ts";

export interface SessionSettings {
  idleMinutes: number;
  maxHours: number;
}

/** The signed-in caller of a request; `token` when the call carries an API token instead of a session. */
export type CurrentUser = sessions.SessionUser & {
  token?: { id: number; scope: "read" | "write" };
};

const INVALID_LOGIN = "Invalid username or password";

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

/**
 * Checks the credentials and opens a new session; the same answer and timing for an unknown user as
 * for a wrong password. With `onlySuperadmins` (OIDC_ONLY) the right password of anyone else answers
 * 403 with that message.
 */
export async function login(
  db: Db,
  settings: SessionSettings,
  credentials: { username: string; password: string; ip: string },
  policy: { onlySuperadmins?: string } = {},
): Promise<{ sessionId: string; profile: Profile }> {
  const { username, password, ip } = credentials;
  // Counted as a failure until the password proves right (login-throttle.ts).
  await admitLoginAttempt(db, username, ip);
  const user = await findActiveUser(db, username);
  const ok = user
    ? await verifyPassword(user.password_hash, password)
    : await verifyAgainstDummy(password);
  if (!user || !ok) {
    await recordSignInFailure(db, username, ip, user ? "wrong password" : "no such user");
    throw new UnauthorizedError(INVALID_LOGIN);
  }
  if (policy.onlySuperadmins && !user.issuperadmin) {
    await recordSignInFailure(
      db,
      user.username,
      ip,
      "password sign-in is for super administrators only",
    );
    throw new ForbiddenError(policy.onlySuperadmins);
  }
  const sessionId = await db.transaction().execute(async (tx) => {
    await loginSucceeded(tx, { username, ip, userId: user.user_id });
    await recordSignIn(tx, user.username, ip, "password");
    return openSession(tx, settings, user.user_id);
  });
  return { sessionId, profile: profileOf({ ...user, username: user.username }) };
}

/** Opens a session for a user whose identity is already checked; answers the new session id (for the cookie). */
export async function openSession(
  db: Db,
  settings: SessionSettings,
  userId: number,
): Promise<string> {
  const sessionId = randomSecret();
  await sessions.insertSession(db, {
    sessionHash: hashSecret(sessionId),
    userId,
    maxHours: settings.maxHours,
  });
  await sessions.deleteExpiredSessions(db, settings.idleMinutes);
  return sessionId;
}

/** The user of a live session (by its id's hash), extending its idle deadline; undefined when none. */
export async function resolveSession(
  db: Db,
  settings: SessionSettings,
  sessionHash: string,
): Promise<sessions.SessionUser | undefined> {
  const user = await sessions.findLiveSession(db, sessionHash, settings.idleMinutes);
  if (!user || !dueForTouch(user.lastSeenAt)) return user;
  await writeLastUse(db, () => sessions.touchSession(db, user.sessionHash));
  return { ...user, lastSeenAt: new Date() };
}

/** Ends a session; the sign-out is recorded in the audit trail with the session's user. */
export async function logout(db: Db, sessionId: string, ip: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    const username = await sessions.deleteSession(tx, hashSecret(sessionId));
    if (username)
      await recordSecurityEvent(tx, { kind: "sign-out", actor: username, subject: username, ip });
  });
}

/**
 * A refused password sign-in, for the audit trail: the typed username is who tried (it may name
 * nobody). Throttled attempts are not recorded, so a flood cannot grow the trail without bound.
 */
function recordSignInFailure(db: Db, username: string, ip: string, reason: string): Promise<void> {
  return recordSecurityEvent(db, {
    kind: "sign-in-failed",
    actor: username,
    subject: username,
    ip,
    detail: { method: "password", reason },
  });
}
