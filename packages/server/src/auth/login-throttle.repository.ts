import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

/**
 * Until the end of the caller's transaction, no other sign-in attempt from this address passes this
 * point, so that its counts and the attempt it adds are read and written as one step.
 */
export async function lockAddress(tx: Db, ip: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`ledgerline.login:${ip}`}, 0))`.execute(
    tx,
  );
}

/** Failures of this username from this address (`pair`), and of any username from it (`ip`). */
export async function countRecentFailures(
  db: Db,
  username: string,
  ip: string,
  minutes: number,
): Promise<{ pair: number; ip: number }> {
  return db
    .selectFrom("app.login_failures")
    .select([
      sql<number>`count(*) filter (where lower(username) = ${username.toLowerCase()})::int`.as(
        "pair",
      ),
      sql<number>`count(*)::int`.as("ip"),
    ])
    .where("ip", "=", ip)
    .where("failed_at", ">", sql<Date>`now() - make_interval(mins => ${minutes})`)
    .executeTakeFirstOrThrow();
}

export async function insertLoginFailure(db: Db, username: string, ip: string): Promise<void> {
  await db.insertInto("app.login_failures").values({ username, ip }).execute();
}

/** Forgets this pair's failures, and everyone's older than a day. */
export async function deleteLoginFailures(db: Db, username: string, ip: string): Promise<void> {
  await db
    .deleteFrom("app.login_failures")
    .where((eb) =>
      eb.or([
        eb.and([eb(eb.fn("lower", ["username"]), "=", username.toLowerCase()), eb("ip", "=", ip)]),
        eb("failed_at", "<", sql<Date>`now() - interval '1 day'`),
      ]),
    )
    .execute();
}

/** Whether this user signed in with a password from this address within the last `days`. */
export async function isKnownAddress(
  db: Db,
  username: string,
  ip: string,
  days: number,
): Promise<boolean> {
  const { rows } = await sql<{ known: boolean }>`
    select exists (
      select 1 from app.login_known_addresses k join app.users u on u.user_id = k.user_id
      where lower(u.username) = ${username.toLowerCase()} and not u.is_deleted and k.ip = ${ip}
        and k.last_signed_in_at > now() - make_interval(days => ${days})
    ) as known`.execute(db);
  return rows[0].known;
}

/** Notes a password sign-in of this user from this address; drops the user's addresses unused for `days`. */
export async function rememberAddress(
  db: Db,
  userId: number,
  ip: string,
  days: number,
): Promise<void> {
  await sql`
    with old as (
      delete from app.login_known_addresses
      where user_id = ${userId} and ip <> ${ip} and last_signed_in_at < now() - make_interval(days => ${days})
    )
    insert into app.login_known_addresses (user_id, ip) values (${userId}, ${ip})
    on conflict (user_id, ip) do update set last_signed_in_at = now()`.execute(db);
}

export interface AccountRule {
  /** The attempt of a streak that first locks the account. */
  lockAt: number;
  firstLockSeconds: number;
  longestLockSeconds: number;
  /** A streak with no attempt for this long starts again from one. */
  forgetAfterHours: number;
}

/**
 * Counts one attempt against the account's streak in a single upsert, so that parallel attempts
 * each get their own number (the row lock of ON CONFLICT orders them). The attempt that reaches
 * `lockAt`, and each after it, locks the account for twice as long as the one before (up to the
 * longest). While it is locked, attempts are not counted and the answer is the seconds left.
 */
export async function claimAccountAttempt(
  db: Db,
  username: string,
  rule: AccountRule,
): Promise<{ lockedForSeconds: number } | { attempt: number }> {
  const key = username.toLowerCase();
  const attempt = sql<number>`case when s.last_attempt_at < now() - make_interval(hours => ${rule.forgetAfterHours}) then 1 else s.attempts + 1 end`;
  const lockSeconds = sql<number>`least(${rule.firstLockSeconds} * power(2, least(${attempt} - ${rule.lockAt}, 30)), ${rule.longestLockSeconds})`;
  const { rows } = await sql<{ attempts: number }>`
    insert into app.login_account_streaks as s (username, attempts, last_attempt_at)
    values (${key}, 1, now())
    on conflict (username) do update set
      attempts = ${attempt},
      locked_until = case when ${attempt} >= ${rule.lockAt} then now() + make_interval(secs => ${lockSeconds}) end,
      last_attempt_at = now()
    where s.locked_until is null or s.locked_until <= now()
    returning attempts`.execute(db);
  if (rows.length > 0) return { attempt: rows[0].attempts };
  const locked = await sql<{ seconds: number }>`
    select ceil(extract(epoch from locked_until - now()))::int as seconds
    from app.login_account_streaks where username = ${key}`.execute(db);
  return { lockedForSeconds: Math.max(locked.rows[0]?.seconds ?? 1, 1) };
}

/**
 * Ends the account's streak after a successful sign-in, unless it has reached the lock (an
 * attacker's streak is not wiped by the user's own sign-in); drops every streak idle for a day.
 */
export async function endAccountStreak(db: Db, username: string, rule: AccountRule): Promise<void> {
  await sql`
    delete from app.login_account_streaks
    where (username = ${username.toLowerCase()} and attempts < ${rule.lockAt})
       or last_attempt_at < now() - make_interval(hours => ${rule.forgetAfterHours})`.execute(db);
}
