import type { Db } from "../db/connection.ts";
import { TooManyRequestsError } from "../errors.ts";
import {
  type AccountRule,
  claimAccountAttempt,
  countRecentFailures,
  deleteLoginFailures,
  endAccountStreak,
  insertLoginFailure,
  isKnownAddress,
  lockAddress,
  rememberAddress,
} from "./login-throttle.repository.ts";

// Kept in the database so every server instance counts the same attempts.
const WINDOW_MINUTES = 15;
const MAX_PER_USERNAME_AND_IP = 10;
const MAX_PER_IP = 100;

/**
 * Per account, from addresses the user has not signed in from (docs/decisions.md, per-account
 * sign-in limit): the 20th attempt of a streak locks the account for them for a minute, each later
 * one for twice as long, up to an hour.
 */
export const ACCOUNT_RULE: AccountRule = {
  lockAt: 20,
  firstLockSeconds: 60,
  longestLockSeconds: 60 * 60,
  forgetAfterHours: 24,
};
/** An address a user signed in from within this many days is theirs (not held by the account lock). */
const KNOWN_ADDRESS_DAYS = 90;

/**
 * Admits a password attempt or throws 429: 10 failures per username and address or 100 per address
 * in 15 minutes, or the account locked for addresses it is not known at. The attempt is counted as
 * a failure before its password is checked (loginSucceeded takes it back), and counting is
 * serialised per address and per account, so a burst of parallel attempts cannot pass a limit.
 */
export async function admitLoginAttempt(db: Db, username: string, ip: string): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await lockAddress(tx, ip);
    const failures = await countRecentFailures(tx, username, ip, WINDOW_MINUTES);
    if (failures.pair >= MAX_PER_USERNAME_AND_IP || failures.ip >= MAX_PER_IP)
      throw tooMany(WINDOW_MINUTES * 60);
    if (!(await isKnownAddress(tx, username, ip, KNOWN_ADDRESS_DAYS))) {
      const claim = await claimAccountAttempt(tx, username, ACCOUNT_RULE);
      if ("lockedForSeconds" in claim) throw tooMany(claim.lockedForSeconds);
    }
    await insertLoginFailure(tx, username, ip);
  });
}

/**
 * A right password: forgets this username and address's failures (the admitted attempt's among
 * them) and the account's streak below the lock, and notes the address as the user's.
 */
export async function loginSucceeded(
  tx: Db,
  attempt: { username: string; ip: string; userId: number },
): Promise<void> {
  await deleteLoginFailures(tx, attempt.username, attempt.ip);
  await endAccountStreak(tx, attempt.username, ACCOUNT_RULE);
  await rememberAddress(tx, attempt.userId, attempt.ip, KNOWN_ADDRESS_DAYS);
}

function tooMany(seconds: number): TooManyRequestsError {
  const minutes = Math.ceil(seconds / 60);
  return new TooManyRequestsError(
    `Too many failed sign-in attempts. Please wait ${minutes} minute${minutes > 1 ? "s" : ""} and try again.`,
    seconds,
  );
}
