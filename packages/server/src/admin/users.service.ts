import type {
  CreateUserRequest,
  MsgBody,
  UpdateUserRequest,
  UserSummary,
} from "@ledgerline/contract";
import {
  type RightsChange,
  recordFlagChange,
  recordSecurityEvent,
} from "../audit/audit.service.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { hashPassword } from "../auth/password.ts";
import { newPasswordProblem } from "../auth/password-policy.ts";
import { deleteSessionsOfUser } from "../auth/sessions.repository.ts";
import type { Db } from "../db/connection.ts";
import { isUniqueViolation } from "../db/pg-errors.ts";
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from "../errors.ts";
import { revokeAllRoles } from "./roles.repository.ts";
import * as users from "./users.repository.ts";

const USERNAME_UNAVAILABLE = "username unavailable";

/** The active users, by username, without anything secret. */
export async function listUsers(db: Db): Promise<UserSummary[]> {
  const rows = await users.listActiveUsers(db);
  return rows.map((u) => ({
    username: u.username,
    name: u.name,
    email: u.email,
    isadmin: u.isadmin,
  }));
}

/** Creates a user; only super administrators may make an administrator. `ip`: the caller's address. */
export async function createUser(
  db: Db,
  caller: CurrentUser,
  input: CreateUserRequest,
  ip: string,
): Promise<MsgBody> {
  if (input.isadmin && !caller.issuperadmin) {
    throw new ForbiddenError("Only super administrators may grant the administrator right");
  }
  const passwordHash = await checkedHash(input.password);
  try {
    await db.transaction().execute(async (tx) => {
      if (await users.usernameTaken(tx, input.username))
        throw new BadRequestError(USERNAME_UNAVAILABLE);
      await users.insertUser(tx, {
        username: input.username,
        name: input.name,
        email: input.email,
        passwordHash,
        isadmin: input.isadmin ?? false,
      });
      const who = { actor: caller.username, subject: input.username, ip };
      await recordSecurityEvent(tx, {
        ...who,
        kind: "user-created",
        detail: { name: input.name, email: input.email },
      });
      if (input.isadmin) await recordFlagChange(tx, who, "isadmin", true);
    });
  } catch (error) {
    // Two administrators creating the same name at once: the unique index decides.
    if (isUniqueViolation(error)) throw new BadRequestError(USERNAME_UNAVAILABLE);
    throw error;
  }
  return { Msg: `User '${input.username}' created` };
}

/**
 * Changes a user's name, email, administrator right and optionally password. A new password ends
 * the user's other sessions (the caller keeps their own when changing their own password).
 */
export async function updateUser(
  db: Db,
  caller: CurrentUser,
  input: UpdateUserRequest,
  ip: string,
): Promise<MsgBody> {
  const target = await activeUser(db, input.username);
  const isadmin = input.isadmin ?? target.isadmin;
  if (target.issuperadmin && !caller.issuperadmin) {
    throw new ForbiddenError("Only super administrators may change a super administrator");
  }
  if (isadmin !== target.isadmin && !caller.issuperadmin) {
    throw new ForbiddenError("Only super administrators may change the administrator right");
  }
  const self = target.user_id === caller.userId;
  if (self && !isadmin) {
    throw new BadRequestError("You cannot take away your own administrator right");
  }
  const password = input.password ?? null;
  const passwordHash = password === null ? undefined : await checkedHash(password);

  await db.transaction().execute(async (tx) => {
    const changes = { name: input.name, email: input.email, isadmin, passwordHash };
    if (!(await users.updateUser(tx, target.user_id, changes))) throw unknownUser(input.username);
    if (passwordHash !== undefined) {
      await deleteSessionsOfUser(tx, target.user_id, self ? caller.sessionHash : undefined);
    }
    const who = { actor: caller.username, subject: target.username, ip };
    await recordUserUpdate(tx, who, target, { ...changes, passwordReset: password !== null });
  });
  return { Msg: `User '${target.username}' saved` };
}

/**
 * Soft-removes a user, ends their sessions and takes their roles. Nobody removes themselves, the
 * last super administrator stays, and only super administrators remove a super administrator.
 */
export async function removeUser(
  db: Db,
  caller: CurrentUser,
  username: string,
  ip: string,
): Promise<MsgBody> {
  const removed = await db.transaction().execute(async (tx) => {
    const target = await activeUser(tx, username);
    if (target.user_id === caller.userId) throw new BadRequestError("You cannot remove yourself");
    if (target.issuperadmin) {
      const superAdmins = await users.lockActiveSuperAdmins(tx);
      if (superAdmins.filter((id) => id !== target.user_id).length === 0) {
        throw new ConflictError("The last super administrator cannot be removed");
      }
      if (!caller.issuperadmin) {
        throw new ForbiddenError("Only super administrators may remove a super administrator");
      }
    }
    await users.markUserRemoved(tx, target.user_id);
    await deleteSessionsOfUser(tx, target.user_id);
    const roles = await revokeAllRoles(tx, target.user_id);
    await recordSecurityEvent(tx, {
      kind: "user-removed",
      actor: caller.username,
      subject: target.username,
      ip,
      detail: { rolesTaken: roles },
    });
    return target.username;
  });
  return { Msg: `User '${removed}' removed` };
}

/**
 * The audit trail of an administrator's edit: a new e-mail address, a new name, the administrator
 * right and a password set for the user, each its own event so that each can be searched for.
 */
async function recordUserUpdate(
  tx: Db,
  who: RightsChange,
  before: users.UserRow,
  after: { name: string; email: string; isadmin: boolean; passwordReset: boolean },
): Promise<void> {
  if (after.email !== before.email)
    await recordSecurityEvent(tx, {
      ...who,
      kind: "email-changed",
      detail: { from: before.email, to: after.email },
    });
  if (after.name !== before.name)
    await recordSecurityEvent(tx, {
      ...who,
      kind: "user-updated",
      detail: { name: { from: before.name, to: after.name } },
    });
  if (after.isadmin !== before.isadmin) await recordFlagChange(tx, who, "isadmin", after.isadmin);
  if (after.passwordReset)
    await recordSecurityEvent(tx, {
      ...who,
      kind: "password-reset",
      detail: { by: "administrator" },
    });
}

async function activeUser(db: Db, username: string): Promise<users.UserRow> {
  const user = await users.findActiveUser(db, username);
  if (!user) throw unknownUser(username);
  return user;
}

function unknownUser(username: string): NotFoundError {
  return new NotFoundError(`Unknown user '${username}'`);
}

async function checkedHash(password: string): Promise<string> {
  const problem = await newPasswordProblem(password);
  if (problem) throw new BadRequestError(problem);
  return hashPassword(password);
}
