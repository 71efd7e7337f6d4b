import type { ApiTokenList, CreatedApiToken } from "@ledgerline/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";

/** Personal access tokens: made by people, used by scripts, narrowed by scope, revocable at once. */

let t: TestApp;
const cookies: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ env: { TOKEN_MAX_DAYS: "90", TOKEN_RATE_LIMIT: "25" } });
  for (const [username, role] of [
    ["steward", "steward"],
    ["viewer", "viewer"],
  ]) {
    await t.createUser({ username, roles: [{ context: "reference", role }] });
    cookies[username] = await t.login(username, TEST_USER_PASSWORD);
  }
  cookies.admin = await t.login("admin", ADMIN_PASSWORD);
});
afterAll(() => t.close());

async function newToken(
  who: string,
  scope: "read" | "write",
  expiresInDays = 30,
): Promise<CreatedApiToken> {
  const res = await t.post(
    "/api/tokens/create",
    { name: `${who} ${scope} job`, scope, expiresInDays },
    cookies[who],
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<CreatedApiToken>();
}

const bearer = (token: CreatedApiToken) => `Bearer ${token.secret}`;
const listCurrencies = (credential: string) =>
  t.post("/api/entity", { context: "reference", entityType: "currency", pageSize: 2 }, credential);

describe("API tokens", () => {
  it("shows the secret once and keeps only its hash", async () => {
    const created = await newToken("steward", "read");
    expect(created.secret).toMatch(/^llt_[A-Za-z0-9_-]{43}$/);
    expect(created.token).toMatchObject({ username: "steward", scope: "read", revokedAt: null });
    const list = (await t.post("/api/tokens/list", {}, cookies.steward)).json<ApiTokenList>();
    expect(list.maxDays).toBe(90);
    expect(JSON.stringify(list)).not.toContain(created.secret);
    const { rows } = await sql<{ token_hash: string }>`
      select token_hash from app.api_tokens where token_id = ${created.token.tokenId}`.execute(
      t.database.db,
    );
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0]?.token_hash).not.toContain(created.secret);
  });

  it("acts as its user, with no cookie set and no Origin needed", async () => {
    const token = await newToken("viewer", "read");
    const res = await listCurrencies(bearer(token));
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toHaveLength(2);
    expect(res.headers["set-cookie"]).toBeUndefined();
    const { rows } = await sql<{ used: boolean }>`
      select last_used_at is not null as used from app.api_tokens
      where token_id = ${token.token.tokenId}`.execute(t.database.db);
    expect(rows[0]?.used).toBe(true);
  });

  it("lets a read token read and refuses it every change", async () => {
    const token = await newToken("steward", "read");
    const save = await t.post(
      "/api/save",
      { context: "reference", entityType: "currency", record: { code: "EUR", name: "Changed" } },
      bearer(token),
    );
    expect(save.statusCode).toBe(403);
    expect(save.json().message).toBe("A read token cannot make changes");
    const write = await newToken("steward", "write");
    const saved = await t.post(
      "/api/save",
      {
        context: "reference",
        entityType: "currency",
        record: { code: "tkn", name: "Token currency" },
        action: "create",
      },
      bearer(write),
    );
    expect(saved.statusCode, saved.body).toBe(200);
  });

  it("never reaches beyond its user's rights, nor manages tokens or sessions", async () => {
    const token = await newToken("viewer", "write");
    const save = await t.post(
      "/api/save",
      { context: "reference", entityType: "currency", record: { code: "EUR", name: "Changed" } },
      bearer(token),
    );
    expect(save.statusCode).toBe(403);
    expect((await t.post("/api/getusers", {}, bearer(token))).statusCode).toBe(403);
    const create = await t.post(
      "/api/tokens/create",
      { name: "more", scope: "write", expiresInDays: 1 },
      bearer(token),
    );
    expect(create.statusCode).toBe(403);
    expect(create.json().message).toBe("This call is not open to API tokens");
  });

  it("never signs in or out with a token, so a token never gets a cookie", async () => {
    const token = await newToken("steward", "write");
    const login = await t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: {
        authorization: `Bearer ${token.secret}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: new URLSearchParams({
        username: "steward",
        password: TEST_USER_PASSWORD,
      }).toString(),
    });
    const logout = await t.app.inject({
      method: "POST",
      url: "/auth/logout",
      headers: { authorization: `Bearer ${token.secret}` },
    });
    for (const res of [login, logout]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe("This call is not open to API tokens");
      expect(res.headers["set-cookie"]).toBeUndefined();
    }
  });

  it("never manages users or roles: no password, no administrator right, no role", async () => {
    const token = await newToken("admin", "write");
    const calls: [string, object][] = [
      [
        "/api/createuser",
        {
          username: "scripted",
          name: "Scripted",
          email: "s@example.com",
          password: "Pass-word-123",
        },
      ],
      [
        "/api/updateuser",
        {
          username: "steward",
          name: "Steward",
          email: "steward@example.com",
          password: "Another-pass-123",
        },
      ],
      [
        "/api/updateuser",
        {
          username: "viewer",
          name: "Viewer",
          email: "viewer@example.com",
          password: null,
          isadmin: true,
        },
      ],
      ["/api/addrole", { context: "reference", username: "viewer", role: "approver" }],
      ["/api/removerole", { context: "reference", username: "steward", role: "steward" }],
      ["/api/removeuser", { username: "viewer" }],
    ];
    for (const [url, body] of calls) {
      const res = await t.post(url, body, bearer(token));
      expect(res.statusCode, url).toBe(403);
      expect(res.json().message).toBe("This call is not open to API tokens");
    }
    expect((await t.login("steward", TEST_USER_PASSWORD)).length).toBeGreaterThan(0);
    const viewer = await t.post(
      "/api/getrolesbyusername",
      { context: "reference", username: "viewer" },
      cookies.admin,
    );
    expect(viewer.json().map((r: { name: string }) => r.name)).not.toContain("approver");
  });

  it("refuses lifetimes beyond the configured limit", async () => {
    const res = await t.post(
      "/api/tokens/create",
      { name: "forever", scope: "read", expiresInDays: 91 },
      cookies.steward,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe("A token may live at most 90 days");
  });

  it("stops working when expired, revoked or its user is removed, at once", async () => {
    const expired = await newToken("steward", "read");
    await sql`update app.api_tokens set expires_at = now() - interval '1 second'
              where token_id = ${expired.token.tokenId}`.execute(t.database.db);
    expect((await listCurrencies(bearer(expired))).statusCode).toBe(401);

    const revoked = await newToken("steward", "read");
    expect((await listCurrencies(bearer(revoked))).statusCode).toBe(200);
    const res = await t.post(
      "/api/tokens/revoke",
      { tokenId: revoked.token.tokenId },
      cookies.steward,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect((await listCurrencies(bearer(revoked))).statusCode).toBe(401);

    await t.createUser({ username: "leaver", roles: [{ context: "reference", role: "viewer" }] });
    cookies.leaver = await t.login("leaver", TEST_USER_PASSWORD);
    const leavers = await newToken("leaver", "read");
    expect((await listCurrencies(bearer(leavers))).statusCode).toBe(200);
    const removed = await t.post("/api/removeuser", { username: "leaver" }, cookies.admin);
    expect(removed.statusCode, removed.body).toBe(200);
    const after = await listCurrencies(bearer(leavers));
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe("Invalid, expired or revoked API token");
    expect((await listCurrencies("Bearer llt_not-a-token")).statusCode).toBe(401);
  });

  it("lets administrators see and revoke every token, and others only their own", async () => {
    const token = await newToken("steward", "read");
    const other = await t.post(
      "/api/tokens/revoke",
      { tokenId: token.token.tokenId },
      cookies.viewer,
    );
    expect(other.statusCode).toBe(404);
    const all = (await t.post("/api/tokens/all", {}, cookies.admin)).json<ApiTokenList>();
    expect(all.tokens.map((x) => x.tokenId)).toContain(token.token.tokenId);
    expect((await t.post("/api/tokens/all", {}, cookies.steward)).statusCode).toBe(403);
    const res = await t.post("/api/tokens/revoke", { tokenId: token.token.tokenId }, cookies.admin);
    expect(res.statusCode).toBe(200);
    expect((await listCurrencies(bearer(token))).statusCode).toBe(401);
  });

  it("limits the calls of one token per minute", async () => {
    const token = await newToken("viewer", "read");
    const statuses: number[] = [];
    for (let i = 0; i < 27; i++) statuses.push((await listCurrencies(bearer(token))).statusCode);
    expect(statuses.slice(0, 25).every((s) => s === 200)).toBe(true);
    const last = await listCurrencies(bearer(token));
    expect(last.statusCode).toBe(429);
    expect(last.json().message).toMatch(/^Too many calls with this API token; try again in/);
    // Another token of the same user has its own allowance; sessions are not counted.
    expect((await listCurrencies(bearer(await newToken("viewer", "read")))).statusCode).toBe(200);
    expect((await listCurrencies(cookies.viewer)).statusCode).toBe(200);
  });

  it("declares the bearer scheme in the OpenAPI document on the calls that accept tokens", async () => {
    await t.createUser({ username: "dev", isdev: true });
    const doc = (
      await t.app.inject({
        method: "GET",
        url: "/api/openapi.json",
        headers: {
          cookie: await t.login("dev", TEST_USER_PASSWORD),
          "sec-fetch-site": "same-origin",
        },
      })
    ).json();
    expect(doc.components.securitySchemes.apiToken).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    expect(doc.paths["/api/entity"].post.security).toEqual([{ session: [] }, { apiToken: [] }]);
    expect(doc.paths["/api/tokens/create"].post.security).toEqual([{ session: [] }]);
    // Which scope each call needs, for a pipeline's author.
    expect(doc.paths["/api/entity"].post["x-token-scope"]).toBe("read");
    expect(doc.paths["/api/save"].post["x-token-scope"]).toBe("write");
    expect(doc.paths["/api/save"].post.description).toContain("only a write token may call it");
    expect(doc.paths["/api/tokens/create"].post.description).toContain("not accepted");
    expect(doc.paths["/auth/login"].post["x-token-scope"]).toBe("none");
    expect(doc.paths["/api/createuser"].post["x-token-scope"]).toBe("none");
  });
});
