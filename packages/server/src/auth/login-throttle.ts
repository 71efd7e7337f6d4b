import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { TooManyRequestsError } from "../errors.ts";

// Kept in the database so every server instance counts the same failures.
const WINDOW_MINUTES = 15;
const MAX_PER_USERNAME_AND_IP = 10;
const MAX_PER_IP = 100;

/** Throws 429 when this username+IP (or this IP) failed too often in the last 15 minutes. */
export async function assertLoginAllowed(db: Db, username: string, ip: string): Promise<void> {
  const row = await db
    .selectFrom("app.login_failures")
    .select([
      sql<number>`count(*) filter (where lower(username) = ${username.toLowerCase()})::int`.as(
        "pair",
      ),
      sql<number>`count(*)::int`.as("ip"),
    ])
    .where("ip", "=", ip)
    .where("failed_at", ">", sql<Date>`now() - make_interval(mins => ${WINDOW_MINUTES})`)
    .executeTakeFirstOrThrow();
  if (row.pair >= MAX_PER_USERNAME_AND_IP || row.ip >= MAX_PER_IP) {
    throw new TooManyRequestsError(
      `Too many failed sign-in attempts. Please wait ${WINDOW_MINUTES} minutes and try again.`,
      WINDOW_MINUTES * 60,
    );
  }
}

export async function recordLoginFailure(db: Db, username: string, ip: string): Promise<void> {
  await db.insertInto("app.login_failures").values({ username, ip }).execute();
}

/** A successful sign-in forgets this pair's failures and drops failures older than a day. */
export async function clearLoginFailures(db: Db, username: string, ip: string): Promise<void> {
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
