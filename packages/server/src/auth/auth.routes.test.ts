import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

function loginForm(fields: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: "/auth/login",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

describe("POST /auth/login", () => {
  it("answers the profile and sets an HttpOnly, SameSite=Lax session cookie", async () => {
    const res = await loginForm({ username: "admin", password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      name: "Administrator",
      username: "admin",
      email: "",
      isadmin: true,
      isdev: true,
      issuperadmin: true,
    });
    const cookie = res.cookies.find((c) => c.name === "ledgerline_session");
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe("Lax");
    expect(cookie?.path).toBe("/");
    expect(cookie?.value.length).toBeGreaterThanOrEqual(40);
  });

  it("issues a new session id at every login and stores only its hash", async () => {
    const a = await t.login("admin", ADMIN_PASSWORD);
    const b = await t.login("admin", ADMIN_PASSWORD);
    expect(a).not.toBe(b);
    const rows = await t.database.db.selectFrom("app.sessions").select("session_hash").execute();
    const raw = a.split("=")[1];
    expect(rows.some((r) => r.session_hash === raw)).toBe(false);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.session_hash))).toBe(true);
  });

  it("matches the username case-insensitively", async () => {
    const res = await loginForm({ username: "ADMIN", password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(200);
  });

  it("answers 401 with the same message for a wrong password and an unknown user", async () => {
    const wrong = await loginForm(
      { username: "admin", password: "not-the-password" },
      { "x-forwarded-for": "10.0.0.1" },
    );
    const unknown = await loginForm({ username: "nobody", password: "whatever1" });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ message: "Invalid username or password" });
    expect(unknown.json()).toEqual(wrong.json());
    expect(wrong.cookies).toHaveLength(0);
  });

  it("answers 400 naming a missing field", async () => {
    const res = await loginForm({ username: "admin" });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("password: Password is required");
    const empty = await loginForm({ username: "", password: "x" });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toMatch(/Username is required/);
  });

  it("accepts only form data", async () => {
    const res = await t.post("/auth/login", { username: "admin", password: ADMIN_PASSWORD });
    expect(res.statusCode).toBe(415);
  });

  it("answers 429 after 10 failures for one username and address, even with the right password", async () => {
    await t.createUser({ username: "limited" });
    for (let i = 0; i < 10; i++) {
      const res = await loginForm({ username: "limited", password: `wrong-${i}` });
      expect(res.statusCode).toBe(401);
    }
    const blocked = await loginForm({ username: "limited", password: TEST_USER_PASSWORD });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toMatch(/Too many failed sign-in attempts/);
    expect(blocked.headers["retry-after"]).toBe("900");
    // Another user from the same address is not blocked.
    expect((await loginForm({ username: "admin", password: ADMIN_PASSWORD })).statusCode).toBe(200);
  });
});

describe("sessions", () => {
  it("logout ends the session: the same cookie then answers 401", async () => {
    const cookie = await t.login("admin", ADMIN_PASSWORD);
    expect((await t.post("/api/ping", {}, cookie)).statusCode).toBe(200);
    const out = await t.post("/auth/logout", undefined, cookie);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ Msg: "Signed out" });
    const after = await t.post("/api/ping", {}, cookie);
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ message: "Please sign in" });
  });

  it("expires a session idle for longer than SESSION_IDLE_MINUTES", async () => {
    const cookie = await t.login("admin", ADMIN_PASSWORD);
    await sql`update app.sessions set last_seen_at = now() - interval '31 minutes'`.execute(
      t.database.db,
    );
    expect((await t.post("/api/ping", {}, cookie)).statusCode).toBe(401);
  });

  it("expires a session past its absolute lifetime even when active", async () => {
    const cookie = await t.login("admin", ADMIN_PASSWORD);
    await sql`update app.sessions set expires_at = now() - interval '1 second'`.execute(
      t.database.db,
    );
    expect((await t.post("/api/ping", {}, cookie)).statusCode).toBe(401);
  });

  it("records a session's last use, without waiting for another caller's open transaction", async () => {
    const cookie = await t.login("admin", ADMIN_PASSWORD);
    const lastSeen = sql<{ minutes: number }>`
      select extract(epoch from now() - max(last_seen_at))::int / 60 as minutes from app.sessions`;
    await sql`update app.sessions set last_seen_at = now() - interval '5 minutes'`.execute(
      t.database.db,
    );
    await t.database.transaction(async (tx) => {
      await sql`update app.type_counts set row_count = row_count`.execute(tx);
      const ping = t.post("/api/ping", {}, cookie);
      const answered = await Promise.race([
        ping,
        new Promise<undefined>((resolve) => setTimeout(resolve, 3_000)),
      ]);
      expect(answered?.statusCode).toBe(200);
    });
    await expect.poll(async () => (await lastSeen.execute(t.database.db)).rows[0].minutes).toBe(0);
  });

  it("refuses a forged cookie", async () => {
    expect((await t.post("/api/ping", {}, "ledgerline_session=forged-value")).statusCode).toBe(401);
  });
});
