import type {
  AccountProfile,
  ChangeEmailRequest,
  ChangePasswordRequest,
  MsgBody,
} from "@ledgerline/contract";
import { updatePasswordHash } from "../admin/users.repository.ts";
import { recordSecurityEvent } from "../audit/audit.service.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { admitLoginAttempt, loginSucceeded } from "../auth/login-throttle.ts";
import { hashPassword, verifyPassword } from "../auth/password.ts";
import { newPasswordProblem } from "../auth/password-policy.ts";
import { deleteSessionsOfUser } from "../auth/sessions.repository.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError, ForbiddenError, UnauthorizedError } from "../errors.ts";
import { findOwnAccount, type OwnAccount, updateEmail } from "./account.repository.ts";

export const WRONG_CURRENT_PASSWORD = "The current password is wrong";
export const COMPANY_SIGN_IN_PASSWORD =
  "Your account signs in with company sign-in: it has no password here to change";
export const COMPANY_SIGN_IN_EMAIL =
  "Your account signs in with company sign-in: its e-mail address comes from there";

/** The caller's own account, for the 'My account' page. */
export async function accountProfile(db: Db, caller: CurrentUser): Promise<AccountProfile> {
  return profileOf(await ownAccount(db, caller));
}

/**
 * Changes the caller's own password: the current one must be given (a wrong one counts as a failed
 * sign-in), the new one must pass the password rules. The caller's other sessions end, this one
 * stays, and the change is recorded in the audit trail, all in one transaction.
 */
export async function changePassword(
  db: Db,
  caller: CurrentUser,
  ip: string,
  request: ChangePasswordRequest,
): Promise<MsgBody> {
  const account = await ownAccount(db, caller);
  if (account.companySignIn) throw new ForbiddenError(COMPANY_SIGN_IN_PASSWORD);
  // The rules first: a mistyped new password costs no attempt against the sign-in throttle.
  const problem = await newPasswordProblem(request.newPassword);
  if (problem) throw new BadRequestError(problem);
  await checkCurrentPassword(db, account, request.currentPassword, ip);
  const passwordHash = await hashPassword(request.newPassword);
  await db.transaction().execute(async (tx) => {
    await loginSucceeded(tx, attemptOf(account, ip));
    await updatePasswordHash(tx, account.userId, passwordHash);
    await deleteSessionsOfUser(tx, account.userId, caller.sessionHash);
    await recordSecurityEvent(tx, {
      kind: "password-changed",
      actor: account.username,
      subject: account.username,
      ip,
    });
  });
  return { Msg: "Your password was changed" };
}

/** Changes the caller's own e-mail address, the current password given; answers the account as it now is. */
export async function changeEmail(
  db: Db,
  caller: CurrentUser,
  ip: string,
  request: ChangeEmailRequest,
): Promise<AccountProfile> {
  const account = await ownAccount(db, caller);
  // Company sign-in writes the directory's address at every sign-in, and such an account has no
  // password to confirm the change with.
  if (account.companySignIn) throw new ForbiddenError(COMPANY_SIGN_IN_EMAIL);
  await checkCurrentPassword(db, account, request.currentPassword, ip);
  await db.transaction().execute(async (tx) => {
    await loginSucceeded(tx, attemptOf(account, ip));
    if (!(await updateEmail(tx, account.userId, request.email))) throw new UnauthorizedError();
    await recordSecurityEvent(tx, {
      kind: "email-changed",
      actor: account.username,
      subject: account.username,
      ip,
      // The old address too: a taken-over account is told apart by where its mail went before.
      detail: { from: account.email, to: request.email },
    });
  });
  return profileOf({ ...account, email: request.email });
}

async function ownAccount(db: Db, caller: CurrentUser): Promise<OwnAccount> {
  const account = await findOwnAccount(db, caller.userId);
  // Removed meanwhile: the session ends with the account.
  if (!account) throw new UnauthorizedError();
  return account;
}

/**
 * Checks the current password as a sign-in attempt of this account from this address: counted by
 * the sign-in throttle as a failure until the change it confirms commits (with loginSucceeded), so
 * that a session left open cannot guess the password faster than the sign-in form allows.
 */
async function checkCurrentPassword(
  db: Db,
  account: OwnAccount,
  password: string,
  ip: string,
): Promise<void> {
  await admitLoginAttempt(db, account.username, ip);
  if (!(await verifyPassword(account.passwordHash, password)))
    throw new BadRequestError(WRONG_CURRENT_PASSWORD);
}

function attemptOf(account: OwnAccount, ip: string) {
  return { username: account.username, ip, userId: account.userId };
}

function profileOf(account: OwnAccount): AccountProfile {
  return {
    username: account.username,
    name: account.name,
    email: account.email,
    companySignIn: account.companySignIn,
  };
}
