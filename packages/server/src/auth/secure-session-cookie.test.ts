import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  createTestApp,
  credentialHeaders,
  type TestApp,
} from "../testing/test-app.ts";

// Behind one proxy that terminates TLS and says so with X-Forwarded-Proto.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { TRUST_PROXY: "1" } });
});
afterAll(() => t.close());

const HTTPS = { "x-forwarded-proto": "https" };

function signIn(headers: Record<string, string> = {}) {
  return t.app.inject({
    method: "POST",
    url: "/auth/login",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    payload: new URLSearchParams({ username: "admin", password: ADMIN_PASSWORD }).toString(),
  });
}

/** A call made with the cookie from one of the app's pages; /api/ping takes an empty JSON body. */
function post(url: string, cookie: string, headers: Record<string, string> = {}) {
  const body = url === "/api/ping" ? { "content-type": "application/json" } : {};
  return t.app.inject({
    method: "POST",
    url,
    headers: { ...credentialHeaders(cookie), ...body, ...headers },
    ...(url === "/api/ping" ? { payload: "{}" } : {}),
  });
}

describe("the session cookie over https", () => {
  it("is named __Host-ledgerline_session: Secure, Path=/, HttpOnly, SameSite=Lax and no Domain", async () => {
    const res = await signIn(HTTPS);
    expect(res.statusCode).toBe(200);
    expect(res.cookies.map((c) => c.name)).toEqual(["__Host-ledgerline_session"]);
    const [cookie] = res.cookies;
    expect(cookie).toMatchObject({ path: "/", secure: true, httpOnly: true, sameSite: "Lax" });
    expect(cookie.domain).toBeUndefined();
  });

  it("is the only name read over https, and is not read over plain http", async () => {
    const { value } = (await signIn(HTTPS)).cookies[0];
    expect((await post("/api/ping", `__Host-ledgerline_session=${value}`, HTTPS)).statusCode).toBe(
      200,
    );
    // A cookie without the prefix may come from a sibling subdomain or a plain-http page.
    expect((await post("/api/ping", `ledgerline_session=${value}`, HTTPS)).statusCode).toBe(401);
    expect((await post("/api/ping", `__Host-ledgerline_session=${value}`)).statusCode).toBe(401);
  });

  it("guards changes made with it: no Origin and no Sec-Fetch-Site answers 403", async () => {
    const { value } = (await signIn(HTTPS)).cookies[0];
    const bare = await t.app.inject({
      method: "POST",
      url: "/api/ping",
      headers: {
        cookie: `__Host-ledgerline_session=${value}`,
        "content-type": "application/json",
        ...HTTPS,
      },
      payload: "{}",
    });
    expect(bare.statusCode).toBe(403);
  });

  it("is ended and cleared by logout with the attributes the prefix needs", async () => {
    const { value } = (await signIn(HTTPS)).cookies[0];
    const cookie = `__Host-ledgerline_session=${value}`;
    const out = await post("/auth/logout", cookie, HTTPS);
    expect(out.statusCode).toBe(200);
    const cleared = out.cookies.find((c) => c.name === "__Host-ledgerline_session");
    expect(cleared).toMatchObject({ value: "", path: "/", secure: true });
    expect((await post("/api/ping", cookie, HTTPS)).statusCode).toBe(401);
  });
});

describe("the session cookie over plain http", () => {
  it("keeps the name ledgerline_session, without Secure", async () => {
    const res = await signIn();
    expect(res.cookies.map((c) => c.name)).toEqual(["ledgerline_session"]);
    expect(res.cookies[0].secure).toBeUndefined();
    const cookie = `ledgerline_session=${res.cookies[0].value}`;
    expect((await post("/api/ping", cookie)).statusCode).toBe(200);
    expect((await post("/auth/logout", cookie)).cookies[0]).toMatchObject({
      name: "ledgerline_session",
      value: "",
    });
  });
});
