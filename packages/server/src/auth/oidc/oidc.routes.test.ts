import fs from "node:fs/promises";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import {
  CALLBACK_URL,
  companySignIn,
  createOidcTestApp,
  type OidcTestApp,
  TEST_PUBLIC_URL,
} from "../../testing/company-sign-in.ts";
import type { TestAccount } from "../../testing/oidc-provider.ts";
import { TEST_USER_PASSWORD } from "../../testing/test-app.ts";

const MAPPING = `
groups:
  data-stewards:
    roles: [{ context: reference, role: steward }]
  readers:
    roles:
      - { context: reference, role: viewer }
      - { context: Data Dictionary, role: dictionary_viewer }
  ledgerline-admins:
    isadmin: true
  developers:
    isdev: true
`;

const account = (login: string, groups: string[]): TestAccount => ({
  preferred_username: login,
  name: `${login} Example`,
  email: `${login}@example.com`,
  groups,
});

let o: OidcTestApp;
beforeAll(async () => {
  o = await createOidcTestApp({
    mapping: MAPPING,
    accounts: {
      alice: account("alice", ["data-stewards", "readers", "developers", "unmapped"]),
      bob: account("bob", ["readers"]),
      carol: account("carol", ["ledgerline-admins"]),
      dave: account("dave", []),
      erin: account("erin", ["readers"]),
      frank: account("frank", ["ledgerline-admins"]),
    },
  });
});
afterAll(() => o.close());

async function userRow(username: string) {
  const { rows } = await sql<{
    user_id: number;
    name: string;
    email: string;
    isadmin: boolean;
    isdev: boolean;
    oidc_subject: string | null;
  }>`select user_id, name, email, isadmin, isdev, oidc_subject from app.users
     where username = ${username}`.execute(o.t.database.db);
  return rows[0];
}

async function rolesOf(username: string) {
  const { rows } = await sql<{ context: string; role: string; granted_by: string }>`
    select r.context, r.role, r.granted_by from app.user_roles r
    join app.users u on u.user_id = r.user_id where u.username = ${username}
    order by r.context, r.role`.execute(o.t.database.db);
  return rows;
}

describe("GET /auth/oidc/login", () => {
  it("redirects to the provider with PKCE, state and nonce kept in the database under a short-lived cookie", async () => {
    const res = await o.t.app.inject({ method: "GET", url: "/auth/oidc/login" });
    expect(res.statusCode).toBe(302);
    const target = new URL(String(res.headers.location));
    expect(`${target.origin}${target.pathname}`).toBe(`${o.provider.issuer}/auth`);
    const q = target.searchParams;
    expect(q.get("client_id")).toBe(o.provider.clientId);
    expect(q.get("redirect_uri")).toBe(CALLBACK_URL);
    expect(q.get("response_type")).toBe("code");
    expect(q.get("scope")).toBe("openid profile email groups");
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(q.get("state")).toBeTruthy();
    expect(q.get("nonce")).toBeTruthy();

    const cookie = res.cookies.find((c) => c.name === "ledgerline_oidc");
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: "Lax",
      path: "/auth/oidc",
      maxAge: 600,
    });
    const { rows } = await sql<{ login_hash: string; minutes: number }>`
      select login_hash, round(extract(epoch from expires_at - now()) / 60)::int as minutes
      from app.oidc_logins where state = ${q.get("state")}`.execute(o.t.database.db);
    expect(rows).toHaveLength(1);
    expect(rows[0].minutes).toBe(10);
    // Only a hash of the browser's id is stored.
    expect(rows[0].login_hash).not.toBe(cookie?.value);
  });

  it("builds the redirect URI from PUBLIC_URL, never from the request's Host", async () => {
    const res = await o.t.app.inject({
      method: "GET",
      url: "/auth/oidc/login",
      headers: { host: "evil.example", "x-forwarded-host": "evil.example" },
    });
    const target = new URL(String(res.headers.location));
    expect(target.searchParams.get("redirect_uri")).toBe(CALLBACK_URL);
  });
});

describe("a first company sign-in", () => {
  let outcome: Awaited<ReturnType<typeof companySignIn>>;
  beforeAll(async () => {
    outcome = await companySignIn(o, "alice");
  });

  it("opens a session with the same cookie as a password sign-in and redirects to the login page to finish", () => {
    expect(outcome.callback.statusCode).toBe(302);
    expect(outcome.location).toBe("/login?signedin=1");
    const cookie = outcome.callback.cookies.find((c) => c.name === "ledgerline_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" });
    expect(cookie?.maxAge).toBe(12 * 3600);
    // The sign-in cookie is cleared.
    expect(outcome.callback.cookies.find((c) => c.name === "ledgerline_oidc")?.value).toBe("");
  });

  it("creates the user with name and e-mail from the claims, keyed by issuer and subject", async () => {
    const user = await userRow("alice");
    expect(user).toMatchObject({ name: "alice Example", email: "alice@example.com" });
    expect(user.oidc_subject).toBe(`${o.provider.issuer} alice`);
  });

  it("gives a session that works on the API and answers the profile", async () => {
    const contexts = await o.t.post("/api/contexts", {}, outcome.sessionCookie);
    expect(contexts.statusCode).toBe(200);
    expect(
      contexts
        .json()
        .map((c: { name: string }) => c.name)
        .sort(),
    ).toEqual(["Data Dictionary", "reference"]);
    const profile = await o.t.app.inject({
      method: "GET",
      url: "/auth/oidc/profile",
      headers: { cookie: outcome.sessionCookie, "sec-fetch-site": "same-origin" },
    });
    expect(profile.json()).toEqual({
      name: "alice Example",
      username: "alice",
      email: "alice@example.com",
      isadmin: false,
      isdev: true,
      issuperadmin: false,
    });
  });

  it("grants the mapped roles as 'oidc' and ignores groups the mapping does not name", async () => {
    expect(await rolesOf("alice")).toEqual([
      { context: "Data Dictionary", role: "dictionary_viewer", granted_by: "oidc" },
      { context: "reference", role: "steward", granted_by: "oidc" },
      { context: "reference", role: "viewer", granted_by: "oidc" },
    ]);
  });

  it("leaves the user unable to sign in with a password", async () => {
    const res = await o.t.app.inject({
      method: "POST",
      url: "/auth/login",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ username: "alice", password: TEST_USER_PASSWORD }).toString(),
    });
    expect(res.statusCode).toBe(401);
  });
});

describe("the next company sign-ins", () => {
  it("refresh name and e-mail from the claims", async () => {
    await companySignIn(o, "bob");
    o.provider.accounts.set("bob", {
      ...account("bob", ["readers"]),
      name: "Robert",
      email: "robert@example.com",
    });
    const again = await companySignIn(o, "bob");
    expect(again.location).toBe("/login?signedin=1");
    expect(await userRow("bob")).toMatchObject({ name: "Robert", email: "robert@example.com" });
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from app.users
      where username = 'bob'`.execute(o.t.database.db);
    expect(rows[0].n).toBe(1);
  });

  it("take back a mapped role when its group goes away and keep a role granted by hand", async () => {
    await companySignIn(o, "erin");
    const admin = await o.t.login("admin", "admin-password-for-tests");
    const granted = await o.t.post(
      "/api/addrole",
      { context: "reference", username: "erin", role: "approver" },
      admin,
    );
    expect(granted.statusCode, granted.body).toBe(200);

    o.provider.accounts.set("erin", account("erin", ["data-stewards"]));
    await companySignIn(o, "erin");
    expect(await rolesOf("erin")).toEqual([
      { context: "reference", role: "approver", granted_by: "admin" },
      { context: "reference", role: "steward", granted_by: "oidc" },
    ]);
  });

  it("set the administrator flag from a group and take it back when the group goes away", async () => {
    await companySignIn(o, "carol");
    expect((await userRow("carol")).isadmin).toBe(true);
    o.provider.accounts.set("carol", account("carol", []));
    await companySignIn(o, "carol");
    expect((await userRow("carol")).isadmin).toBe(false);
  });

  it("never take isadmin from a super administrator", async () => {
    await companySignIn(o, "frank");
    await sql`update app.users set issuperadmin = true where username = 'frank'`.execute(
      o.t.database.db,
    );
    o.provider.accounts.set("frank", account("frank", []));
    await companySignIn(o, "frank");
    expect((await userRow("frank")).isadmin).toBe(true);
  });

  it("keep a flag set by hand when no group gives it", async () => {
    await companySignIn(o, "dave");
    await sql`update app.users set isdev = true where username = 'dave'`.execute(o.t.database.db);
    await companySignIn(o, "dave");
    expect((await userRow("dave")).isdev).toBe(true);
  });
});

describe("the return path", () => {
  it("comes back after the sign-in", async () => {
    const outcome = await companySignIn(o, "bob", { next: "/pending?context=reference" });
    expect(outcome.location).toBe(
      `/login?signedin=1&next=${encodeURIComponent("/pending?context=reference")}`,
    );
  });

  it("is never another site", async () => {
    for (const next of ["//evil.example/x", "https://evil.example", "/\\evil.example"]) {
      const outcome = await companySignIn(o, "bob", { next });
      expect(outcome.location).toBe("/login?signedin=1");
    }
  });
});

describe("POST /auth/logout after a company sign-in", () => {
  it("ends the session and answers the provider's end-session URL with the ID token as hint", async () => {
    const { sessionCookie } = await companySignIn(o, "bob");
    const res = await o.t.post("/auth/logout", undefined, sessionCookie);
    expect(res.statusCode).toBe(200);
    const url = new URL(res.json().endSessionUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${o.provider.issuer}/session/end`);
    expect(url.searchParams.get("post_logout_redirect_uri")).toBe(`${TEST_PUBLIC_URL}/login`);
    expect(url.searchParams.get("id_token_hint")?.split(".")).toHaveLength(3);
    const after = await o.t.post("/api/contexts", {}, sessionCookie);
    expect(after.statusCode).toBe(401);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from app.oidc_sessions
      where id_token = ${url.searchParams.get("id_token_hint")}`.execute(o.t.database.db);
    expect(rows[0].n).toBe(0);
  });

  it("answers no end-session URL after a password sign-in", async () => {
    const cookie = await o.t.login("admin", "admin-password-for-tests");
    const res = await o.t.post("/auth/logout", undefined, cookie);
    expect(res.json()).toEqual({ Msg: "Signed out" });
  });
});

describe("GET /auth/oidc/profile", () => {
  it("answers 401 without a session", async () => {
    const res = await o.t.app.inject({ method: "GET", url: "/auth/oidc/profile" });
    expect(res.statusCode).toBe(401);
  });
});

describe("the OpenAPI document", () => {
  it("describes the company sign-in calls", async () => {
    const admin = await o.t.login("admin", "admin-password-for-tests");
    const res = await o.t.app.inject({
      method: "GET",
      url: "/api/openapi.json",
      headers: { cookie: admin, "sec-fetch-site": "same-origin" },
    });
    const paths = res.json().paths;
    expect(paths["/auth/oidc/login"].get.parameters).toEqual([
      expect.objectContaining({ name: "next", in: "query" }),
    ]);
    expect(paths["/auth/oidc/callback"].get.description).toMatch(/provider's answer/);
    expect(paths["/auth/oidc/profile"].get.security).toEqual([{ session: [] }]);
    expect(paths["/auth/logout"].post.responses["200"]).toBeDefined();
  });
});

describe("a mapping file naming a role the model does not have", () => {
  it("stops the start with file, path and reason", async () => {
    const file = path.join(o.t.config.dataDir, "bad-mapping.yaml");
    await fs.writeFile(file, "groups:\n  a:\n    roles: [{ context: reference, role: king }]\n");
    const oidc = o.t.config.oidc;
    if (!oidc) throw new Error("the test server has no company sign-in");
    const config = { ...o.t.config, oidc: { ...oidc, roleMappingFile: file } };
    await expect(
      buildApp({ config, database: o.t.database, model: o.t.prepared.model }, { logger: false }),
    ).rejects.toThrow(
      `The role mapping (OIDC_ROLE_MAPPING) is invalid:\n  ${file}: groups.a.roles.0.role: no role 'king' in context 'reference'`,
    );
  });
});
