import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { ROUTE_POLICY } from "./route-policy.ts";

let t: TestApp;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await t.login("admin", ADMIN_PASSWORD);
});
afterAll(() => t.close());

function concrete(url: string): string {
  return url.replace(/\*$/, "").replace(/:(\w+)/g, "x") || "/";
}

describe("route guard", () => {
  it("gives every registered route a policy from the table", () => {
    expect(t.app.registeredRoutes.length).toBeGreaterThan(5);
    for (const r of t.app.registeredRoutes) expect(r.policy, `${r.method} ${r.url}`).toBeDefined();
  });

  it("answers 401 without a session on every route that is not public", async () => {
    const guarded = t.app.registeredRoutes.filter((r) => r.policy.access !== "public");
    expect(guarded.length).toBeGreaterThan(3);
    for (const r of guarded) {
      const res = await t.app.inject({ method: r.method as "GET", url: concrete(r.url) });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
      if (r.method === "HEAD") continue;
      if (r.policy.textErrors) expect(res.body, `${r.method} ${r.url}`).toBe("Please sign in");
      else expect(res.json(), `${r.method} ${r.url}`).toEqual({ message: "Please sign in" });
    }
  });

  it("answers 403 on administrator routes for a signed-in user without the flag", async () => {
    await t.createUser({
      username: "nobody-special",
      roles: [{ context: "reference", role: "viewer" }],
    });
    const cookie = await t.login("nobody-special", "password-for-tests");
    const adminRoutes = t.app.registeredRoutes.filter(
      (r) => r.policy.access === "admin" || r.policy.access === "dev",
    );
    expect(adminRoutes.length).toBeGreaterThan(0);
    for (const r of adminRoutes) {
      const res = await t.app.inject({
        method: r.method as "GET",
        url: concrete(r.url),
        headers: {
          cookie,
          "sec-fetch-site": "same-origin",
          ...(r.policy.body === "json" ? { "content-type": "application/json" } : {}),
        },
        ...(r.policy.body === "json" ? { payload: "{}" } : {}),
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(403);
    }
  });

  it("has no table entry that matches no route", () => {
    const registered = new Set(t.app.registeredRoutes.map((r) => `${r.method} ${r.url}`));
    for (const key of Object.keys(ROUTE_POLICY)) {
      if (key.endsWith("*")) continue;
      expect(registered.has(key), key).toBe(true);
    }
  });

  it("refuses a foreign Origin on a state-changing call", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ping",
      headers: {
        cookie: adminCookie,
        origin: "https://evil.example",
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      payload: "{}",
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: "Cross-origin request refused" });
  });

  it("accepts the server's own Origin", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ping",
      headers: {
        cookie: adminCookie,
        origin: "http://localhost:80",
        host: "localhost:80",
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      payload: "{}",
    });
    expect(res.statusCode).toBe(200);
  });

  it("refuses a change made with the session cookie that carries neither Origin nor Sec-Fetch-Site", async () => {
    const call = (headers: Record<string, string>) =>
      t.app.inject({
        method: "POST",
        url: "/api/createuser",
        headers: { cookie: adminCookie, "content-type": "application/json", ...headers },
        payload: JSON.stringify({
          username: "forged",
          name: "Forged",
          email: "forged@example.com",
          password: "a-long-enough-password",
          isadmin: false,
        }),
      });
    const forged: Record<string, string>[] = [
      {},
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "none" },
    ];
    for (const headers of forged) {
      const res = await call(headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(403);
      expect(res.json()).toEqual({
        message: "Changes made with a session must come from this application's pages",
      });
    }
    const users = await t.post("/api/getusers", {}, adminCookie);
    expect(users.json().map((u: { username: string }) => u.username)).not.toContain("forged");
    expect((await call({ "sec-fetch-site": "same-origin" })).statusCode).toBe(200);
  });

  it("lets reads with the session cookie and calls with an API token through without Origin", async () => {
    const read = await t.app.inject({
      method: "GET",
      url: "/api/openapi.json",
      headers: { cookie: adminCookie },
    });
    expect(read.statusCode).toBe(200);
    const created = await t.post(
      "/api/tokens/create",
      { name: "script", scope: "read", expiresInDays: 1 },
      adminCookie,
    );
    const { secret } = created.json() as { secret: string };
    const res = await t.app.inject({
      method: "POST",
      url: "/api/ping",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      payload: "{}",
    });
    expect(res.statusCode).toBe(200);
  });

  it("marks the server's answers not to be stored, and leaves the web app's files cacheable", async () => {
    const api = await t.post("/api/ping", {}, adminCookie);
    expect(api.headers["cache-control"]).toBe("no-store");
    const refused = await t.post("/api/getusers", {});
    expect(refused.headers["cache-control"]).toBe("no-store");
    const page = await t.app.inject({ method: "GET", url: "/explorer" });
    expect(page.headers["cache-control"]).not.toBe("no-store");
  });

  it("answers 415 when a JSON call is sent another content type", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/contexts",
      headers: {
        cookie: adminCookie,
        "content-type": "text/plain",
        "sec-fetch-site": "same-origin",
      },
      payload: "{}",
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe("This call accepts application/json only");
  });

  it("answers 400 with a clear message for malformed JSON", async () => {
    const res = await t.app.inject({
      method: "POST",
      url: "/api/context",
      headers: {
        cookie: adminCookie,
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBeTruthy();
  });
});
