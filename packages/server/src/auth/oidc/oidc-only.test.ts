import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOidcTestApp, type OidcTestApp } from "../../testing/company-sign-in.ts";
import { ADMIN_PASSWORD, TEST_USER_PASSWORD } from "../../testing/test-app.ts";

let o: OidcTestApp;
beforeAll(async () => {
  o = await createOidcTestApp({ env: { OIDC_ONLY: "1" } });
  await o.t.createUser({ username: "worker", roles: [{ context: "reference", role: "viewer" }] });
});
afterAll(() => o.close());

function passwordLogin(username: string, password: string) {
  return o.t.app.inject({
    method: "POST",
    url: "/auth/login",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ username, password }).toString(),
  });
}

describe("with OIDC_ONLY=1", () => {
  it("refuses the right password of a normal user with 403 'Sign in with <label>' and opens no session", async () => {
    const res = await passwordLogin("worker", TEST_USER_PASSWORD);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: "Passwords are for super administrators only here: sign in with Example SSO",
    });
    expect(res.cookies.filter((c) => c.name === "ledgerline_session")).toHaveLength(0);
    const sessions = await o.t.database.db
      .selectFrom("app.sessions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(Number(sessions.n)).toBe(0);
  });

  it("answers a wrong password as before (401), telling nothing about the account", async () => {
    const res = await passwordLogin("worker", "not-the-password");
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ message: "Invalid username or password" });
  });

  it("still lets the super administrator in with a password (break-glass)", async () => {
    const res = await passwordLogin("admin", ADMIN_PASSWORD);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ username: "admin", issuperadmin: true });
  });

  it("tells the web app through /app-config.json", async () => {
    const res = await o.t.app.inject({ method: "GET", url: "/app-config.json" });
    expect(res.json().oidc).toEqual({ label: "Example SSO", only: true });
  });
});
