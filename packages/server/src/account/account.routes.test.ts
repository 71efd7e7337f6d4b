import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSession } from "../auth/auth.service.ts";
import { insertOidcUser } from "../auth/oidc/oidc.repository.ts";
import { hashPassword } from "../auth/password.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

const BREACHED = "This password appears in a list of breached passwords; choose another";
const WRONG_CURRENT = "The current password is wrong";
const NEW_PASSWORD = "a-new-passphrase-of-mine";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function passwordHashOf(username: string): Promise<string> {
  const row = await t.database.db
    .selectFrom("app.users")
    .select("password_hash")
    .where("username", "=", username)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

async function emailOf(username: string): Promise<string> {
  const row = await t.database.db
    .selectFrom("app.users")
    .select("email")
    .where("username", "=", username)
    .executeTakeFirstOrThrow();
  return row.email;
}

/** Whether the session still works (a call that needs one answers 200). */
async function sessionAlive(cookie: string): Promise<boolean> {
  return (await t.post("/api/account/profile", {}, cookie)).statusCode === 200;
}

function signIn(username: string, password: string) {
  return t.app.inject({
    method: "POST",
    url: "/auth/login",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ username, password }).toString(),
  });
}

/** The audit trail's events of a kind about a user, oldest first. */
async function auditEvents(kind: string, subject: string) {
  const { rows } = await sql<{ actor: string; origin: string; detail: Record<string, unknown> }>`
    select actor, origin, detail from app.security_events
    where kind = ${kind} and subject = ${subject} order by event_id`.execute(t.database.db);
  return rows;
}

/** A user with two sessions: `mine` makes the calls, `other` is their other browser. */
async function userWithTwoSessions(username: string) {
  await t.createUser({ username });
  return {
    mine: await t.login(username, TEST_USER_PASSWORD),
    other: await t.login(username, TEST_USER_PASSWORD),
  };
}

/**
 * A change confirmed with `currentPassword`, by turns the e-mail address and the password (set to
 * TEST_USER_PASSWORD again, which keeps it).
 */
function confirmedChange(cookie: string, currentPassword: string, turn: number) {
  return turn % 2 === 0
    ? t.post("/api/account/email", { currentPassword, email: `turn${turn}@example.com` }, cookie)
    : t.post("/api/account/password", { currentPassword, newPassword: TEST_USER_PASSWORD }, cookie);
}

describe("POST /api/account/profile", () => {
  it("answers the caller's own account", async () => {
    await t.createUser({ username: "profiled" });
    const cookie = await t.login("profiled", TEST_USER_PASSWORD);
    const res = await t.post("/api/account/profile", {}, cookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      username: "profiled",
      name: "profiled name",
      email: "profiled@example.com",
      companySignIn: false,
    });
  });
});

describe("POST /api/account/password", () => {
  it("changes the password: this session lives, the others end, the new password signs in", async () => {
    const { mine, other } = await userWithTwoSessions("changer");
    const before = await passwordHashOf("changer");
    const res = await t.post(
      "/api/account/password",
      { currentPassword: TEST_USER_PASSWORD, newPassword: NEW_PASSWORD },
      mine,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ Msg: "Your password was changed" });
    const after = await passwordHashOf("changer");
    expect(after).not.toBe(before);
    expect(after).toMatch(/^\$argon2id\$/);
    expect(await sessionAlive(mine)).toBe(true);
    expect(await sessionAlive(other)).toBe(false);
    expect((await signIn("changer", TEST_USER_PASSWORD)).statusCode).toBe(401);
    expect((await signIn("changer", NEW_PASSWORD)).statusCode).toBe(200);
    expect(await auditEvents("password-changed", "changer")).toEqual([
      { actor: "changer", origin: "127.0.0.1", detail: {} },
    ]);
  });

  it("answers 400 and changes nothing when the current password is wrong", async () => {
    const { mine, other } = await userWithTwoSessions("wrongcurrent");
    const before = await passwordHashOf("wrongcurrent");
    const res = await t.post(
      "/api/account/password",
      { currentPassword: "not-my-password", newPassword: NEW_PASSWORD },
      mine,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: WRONG_CURRENT });
    expect(await passwordHashOf("wrongcurrent")).toBe(before);
    expect(await sessionAlive(other)).toBe(true);
    expect((await signIn("wrongcurrent", NEW_PASSWORD)).statusCode).toBe(401);
    expect(await auditEvents("password-changed", "wrongcurrent")).toEqual([]);
  });

  it("counts wrong current passwords as failed sign-ins: guessing ends in 429, at sign-in too", async () => {
    const { mine } = await userWithTwoSessions("guesser");
    const answers: { status: number; message: string }[] = [];
    // Both routes take turns, so that neither reaches its own rate limit (10 a minute).
    for (let i = 0; i < 11; i++) {
      const res = await confirmedChange(mine, `guess-number-${i}`, i);
      answers.push({ status: res.statusCode, message: res.json().message });
    }
    // The sign-in form's limit per username and address: ten failures, then refusals.
    expect(answers.slice(0, 10)).toEqual(Array(10).fill({ status: 400, message: WRONG_CURRENT }));
    expect(answers[10]).toMatchObject({ status: 429 });
    expect(answers[10].message).toMatch(/^Too many failed sign-in attempts/);
    // The right password is refused as well until the window passes: no guess is checked.
    expect((await confirmedChange(mine, TEST_USER_PASSWORD, 11)).statusCode).toBe(429);
    expect((await signIn("guesser", TEST_USER_PASSWORD)).statusCode).toBe(429);
    expect(await emailOf("guesser")).toBe("guesser@example.com");
  });

  it("a right current password takes its attempt back: changes never add up to a lock", async () => {
    await t.createUser({ username: "frequent" });
    const cookie = await t.login("frequent", TEST_USER_PASSWORD);
    for (let i = 0; i < 14; i++) {
      const res = await confirmedChange(cookie, TEST_USER_PASSWORD, i);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect((await signIn("frequent", TEST_USER_PASSWORD)).statusCode).toBe(200);
  });

  it("refuses a breached password with a message naming why, in any case", async () => {
    const { mine } = await userWithTwoSessions("breacher");
    const before = await passwordHashOf("breacher");
    for (const newPassword of ["iloveyou1", "Password1", "QWERTYUIOP"]) {
      const res = await t.post(
        "/api/account/password",
        { currentPassword: TEST_USER_PASSWORD, newPassword },
        mine,
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: BREACHED });
    }
    expect(await passwordHashOf("breacher")).toBe(before);
  });

  it("refuses a password shorter than 8 or longer than 256 characters", async () => {
    const { mine } = await userWithTwoSessions("shortlong");
    const before = await passwordHashOf("shortlong");
    const short = await t.post(
      "/api/account/password",
      { currentPassword: TEST_USER_PASSWORD, newPassword: "k7#vq2z" },
      mine,
    );
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: "Password must have at least 8 characters" });
    const long = await t.post(
      "/api/account/password",
      { currentPassword: TEST_USER_PASSWORD, newPassword: "x".repeat(257) },
      mine,
    );
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ message: "Password must have at most 256 characters" });
    expect(await passwordHashOf("shortlong")).toBe(before);
  });
});

describe("POST /api/account/email", () => {
  it("changes the e-mail address and answers the account as it now is", async () => {
    await t.createUser({ username: "mailer" });
    const cookie = await t.login("mailer", TEST_USER_PASSWORD);
    const res = await t.post(
      "/api/account/email",
      { currentPassword: TEST_USER_PASSWORD, email: "  mailer@new.example.org " },
      cookie,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      username: "mailer",
      name: "mailer name",
      email: "mailer@new.example.org",
      companySignIn: false,
    });
    expect(await emailOf("mailer")).toBe("mailer@new.example.org");
    expect(await auditEvents("email-changed", "mailer")).toEqual([
      {
        actor: "mailer",
        origin: "127.0.0.1",
        detail: { from: "mailer@example.com", to: "mailer@new.example.org" },
      },
    ]);
  });

  it("answers 400 and changes nothing for a wrong current password or an invalid address", async () => {
    await t.createUser({ username: "mailkeeper" });
    const cookie = await t.login("mailkeeper", TEST_USER_PASSWORD);
    const wrong = await t.post(
      "/api/account/email",
      { currentPassword: "not-my-password", email: "taken-over@example.net" },
      cookie,
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toEqual({ message: WRONG_CURRENT });
    const invalid = await t.post(
      "/api/account/email",
      { currentPassword: TEST_USER_PASSWORD, email: "not an address" },
      cookie,
    );
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({
      message: "email: Enter an e-mail address such as name@example.com",
    });
    expect(await emailOf("mailkeeper")).toBe("mailkeeper@example.com");
    expect(await auditEvents("email-changed", "mailkeeper")).toEqual([]);
  });
});

describe("accounts from company sign-in", () => {
  it("have no password to change and no e-mail address to set here: 403, nothing changed", async () => {
    const user = await insertOidcUser(t.database.db, {
      subject: "company-subject-1",
      username: "company.user",
      name: "Company User",
      email: "company.user@corp.example",
      // As company sign-in makes it: a random password nobody knows.
      passwordHash: await hashPassword("random-nobody-knows-this"),
    });
    const sessionId = await openSession(
      t.database.db,
      { idleMinutes: t.config.sessionIdleMinutes, maxHours: t.config.sessionMaxHours },
      user.user_id,
    );
    const cookie = `ledgerline_session=${sessionId}`;
    const profile = await t.post("/api/account/profile", {}, cookie);
    expect(profile.json()).toMatchObject({ username: "company.user", companySignIn: true });
    const before = await passwordHashOf("company.user");

    const password = await t.post(
      "/api/account/password",
      { currentPassword: "random-nobody-knows-this", newPassword: NEW_PASSWORD },
      cookie,
    );
    expect(password.statusCode).toBe(403);
    expect(password.json()).toEqual({
      message: "Your account signs in with company sign-in: it has no password here to change",
    });
    const email = await t.post(
      "/api/account/email",
      { currentPassword: "random-nobody-knows-this", email: "elsewhere@example.com" },
      cookie,
    );
    expect(email.statusCode).toBe(403);
    expect(await passwordHashOf("company.user")).toBe(before);
    expect(await emailOf("company.user")).toBe("company.user@corp.example");
  });
});

describe("API tokens", () => {
  it("cannot read the account or change its password or e-mail address, whatever their scope", async () => {
    await t.createUser({ username: "tokenholder" });
    const cookie = await t.login("tokenholder", TEST_USER_PASSWORD);
    const created = await t.post(
      "/api/tokens/create",
      { name: "pipeline", scope: "write", expiresInDays: 1 },
      cookie,
    );
    expect(created.statusCode, created.body).toBe(200);
    const bearer = `Bearer ${created.json().secret}`;
    const before = await passwordHashOf("tokenholder");

    const calls: [string, object][] = [
      ["/api/account/profile", {}],
      ["/api/account/password", { currentPassword: TEST_USER_PASSWORD, newPassword: NEW_PASSWORD }],
      ["/api/account/email", { currentPassword: TEST_USER_PASSWORD, email: "token@example.net" }],
    ];
    for (const [url, body] of calls) {
      const res = await t.post(url, body, bearer);
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).toEqual({ message: "This call is not open to API tokens" });
    }
    expect(await passwordHashOf("tokenholder")).toBe(before);
    expect(await emailOf("tokenholder")).toBe("tokenholder@example.com");
  });
});

describe("without a session", () => {
  it("answers 401", async () => {
    const res = await t.post("/api/account/password", {
      currentPassword: TEST_USER_PASSWORD,
      newPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(401);
  });
});
