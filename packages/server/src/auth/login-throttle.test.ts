import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../http/types.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { ACCOUNT_RULE } from "./login-throttle.ts";

// One reverse proxy in front: the client's address is the right-most X-Forwarded-For entry.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: "1" } });
});
afterAll(() => t.close());

function signIn(username: string, password: string, forwardedFor?: string, app: App = t.app) {
  return app.inject({
    method: "POST",
    url: "/auth/login",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}),
    },
    payload: new URLSearchParams({ username, password }).toString(),
  });
}

/** A new address for every call, as an attacker rotating through many would send. */
let nextAddress = 0;
const anotherAddress = () => `203.0.${Math.floor(nextAddress / 250)}.${(nextAddress++ % 250) + 1}`;

async function streakOf(username: string) {
  const { rows } = await sql<{ attempts: number; seconds: number | null }>`
    select attempts, ceil(extract(epoch from locked_until - now()))::int as seconds
    from app.login_account_streaks where username = ${username}`.execute(t.database.db);
  return rows[0];
}

describe("the per-account sign-in limit", () => {
  it("answers 429 from the 21st of 30 wrong passwords, each from another forwarded address", async () => {
    await t.createUser({ username: "rotated" });
    const codes: number[] = [];
    for (let i = 0; i < 30; i++)
      codes.push((await signIn("rotated", `wrong-${i}`, anotherAddress())).statusCode);
    expect(codes.slice(0, ACCOUNT_RULE.lockAt)).toEqual(Array(ACCOUNT_RULE.lockAt).fill(401));
    expect(codes.slice(ACCOUNT_RULE.lockAt)).toEqual(Array(30 - ACCOUNT_RULE.lockAt).fill(429));
    const locked = await signIn("rotated", TEST_USER_PASSWORD, anotherAddress());
    expect(locked.statusCode).toBe(429);
    expect(locked.json().message).toBe(
      "Too many failed sign-in attempts. Please wait 1 minute and try again.",
    );
    expect(Number(locked.headers["retry-after"])).toBeGreaterThan(50);
    expect(Number(locked.headers["retry-after"])).toBeLessThanOrEqual(60);
    // Refused attempts are not counted: the lock does not grow while it holds.
    expect((await streakOf("rotated")).attempts).toBe(ACCOUNT_RULE.lockAt);
  });

  it("treats a username nobody has exactly as a real one", async () => {
    const codes: number[] = [];
    for (let i = 0; i < ACCOUNT_RULE.lockAt + 1; i++)
      codes.push((await signIn("no-such-person", `wrong-${i}`, anotherAddress())).statusCode);
    expect(codes.at(-2)).toBe(401);
    expect(codes.at(-1)).toBe(429);
  });

  it("locks for twice as long at each attempt after a lock ends, up to an hour", async () => {
    await t.createUser({ username: "growing" });
    for (let i = 0; i < ACCOUNT_RULE.lockAt; i++)
      await signIn("growing", `wrong-${i}`, anotherAddress());
    const expire = sql`update app.login_account_streaks set locked_until = now() - interval '1 second'
      where username = 'growing'`;
    await expire.execute(t.database.db);
    expect((await signIn("growing", "wrong-again", anotherAddress())).statusCode).toBe(401);
    expect((await streakOf("growing")).seconds).toBeGreaterThan(115);
    expect((await streakOf("growing")).seconds).toBeLessThanOrEqual(120);
    await expire.execute(t.database.db);
    await signIn("growing", "wrong-once-more", anotherAddress());
    expect((await streakOf("growing")).seconds).toBeGreaterThan(235);
    await sql`update app.login_account_streaks set attempts = 60, locked_until = null
      where username = 'growing'`.execute(t.database.db);
    await signIn("growing", "wrong-late", anotherAddress());
    const capped = await signIn("growing", TEST_USER_PASSWORD, anotherAddress());
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers["retry-after"])).toBeGreaterThan(3590);
    expect(Number(capped.headers["retry-after"])).toBeLessThanOrEqual(3600);
  });

  it("lets the user in from an address they signed in from while an attacker holds the account locked", async () => {
    await t.createUser({ username: "hammered" });
    expect((await signIn("hammered", TEST_USER_PASSWORD, "198.51.100.5")).statusCode).toBe(200);
    for (let i = 0; i < 25; i++) await signIn("hammered", `guess-${i}`, anotherAddress());
    expect((await signIn("hammered", "guess", anotherAddress())).statusCode).toBe(429);

    expect((await signIn("hammered", TEST_USER_PASSWORD, "198.51.100.5")).statusCode).toBe(200);
    // The attacker cannot pass for the known address by writing it first in X-Forwarded-For.
    const spoofed = await signIn(
      "hammered",
      TEST_USER_PASSWORD,
      `198.51.100.5, ${anotherAddress()}`,
    );
    expect(spoofed.statusCode).toBe(429);
    // A new address of the user's own is held with everyone else's until the lock ends.
    expect((await signIn("hammered", TEST_USER_PASSWORD, "192.0.2.77")).statusCode).toBe(429);
    // The user's sign-in leaves the attacker's streak where it was.
    expect((await streakOf("hammered")).attempts).toBe(ACCOUNT_RULE.lockAt);
  });

  it("still limits a known address to 10 failures in 15 minutes", async () => {
    await t.createUser({ username: "known-typist" });
    expect((await signIn("known-typist", TEST_USER_PASSWORD, "198.51.100.6")).statusCode).toBe(200);
    for (let i = 0; i < 10; i++)
      expect((await signIn("known-typist", `typo-${i}`, "198.51.100.6")).statusCode).toBe(401);
    expect((await signIn("known-typist", TEST_USER_PASSWORD, "198.51.100.6")).statusCode).toBe(429);
    expect(await streakOf("known-typist")).toBeUndefined();
  });

  it("forgets the user's own few mistakes once they sign in", async () => {
    await t.createUser({ username: "typist" });
    for (let i = 0; i < 5; i++) await signIn("typist", `typo-${i}`, anotherAddress());
    expect((await streakOf("typist")).attempts).toBe(5);
    expect((await signIn("typist", TEST_USER_PASSWORD, anotherAddress())).statusCode).toBe(200);
    expect(await streakOf("typist")).toBeUndefined();
  });

  it("checks no more than 20 passwords of 40 sent at once from 40 addresses", async () => {
    await t.createUser({ username: "burst" });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn("burst", `burst-${i}`, anotherAddress())),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(ACCOUNT_RULE.lockAt);
    expect(codes.filter((c) => c === 429)).toHaveLength(40 - ACCOUNT_RULE.lockAt);
    expect((await streakOf("burst")).attempts).toBe(ACCOUNT_RULE.lockAt);
  });

  it("checks no more than 10 passwords of 40 sent at once from one address", async () => {
    await t.createUser({ username: "one-source" });
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) => signIn("one-source", `burst-${i}`, "198.51.100.40")),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(10);
    expect(codes.filter((c) => c === 429)).toHaveLength(30);
  });

  it.skipIf(testDatabaseKind() !== "postgres")(
    "counts one limit for a burst spread over two server instances",
    async () => {
      await t.createUser({ username: "spread" });
      const other = await t.secondInstance();
      try {
        const answers = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            signIn("spread", `spread-${i}`, anotherAddress(), i % 2 ? other.app : t.app),
          ),
        );
        expect(answers.filter((a) => a.statusCode === 401)).toHaveLength(ACCOUNT_RULE.lockAt);
      } finally {
        await other.close();
      }
    },
  );
});

describe("the client's address behind one trusted proxy", () => {
  it("is the right-most X-Forwarded-For entry, never the left-most one the client wrote", async () => {
    await signIn("address-probe", "wrong", "192.0.2.200, 198.51.100.20");
    await signIn("address-probe", "wrong", "198.51.100.21");
    await signIn("address-probe", "wrong");
    const rows = await t.database.db
      .selectFrom("app.login_failures")
      .select("ip")
      .where("username", "=", "address-probe")
      .orderBy("failure_id")
      .execute();
    expect(rows.map((r) => r.ip)).toEqual(["198.51.100.20", "198.51.100.21", "127.0.0.1"]);
  });
});
