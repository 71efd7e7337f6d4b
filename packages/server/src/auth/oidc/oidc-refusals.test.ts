import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  callback,
  companySignIn,
  createOidcTestApp,
  type OidcTestApp,
  type SignInOutcome,
} from "../../testing/company-sign-in.ts";
import type { TestAccount } from "../../testing/oidc-provider.ts";

const account = (login: string): TestAccount => ({
  preferred_username: login,
  name: `${login} Example`,
  email: `${login}@example.com`,
  groups: ["readers"],
});

let o: OidcTestApp;
beforeAll(async () => {
  o = await createOidcTestApp({
    mapping: "groups:\n  readers:\n    roles: [{ context: reference, role: viewer }]\n",
    accounts: {
      mallory: account("mallory"),
      admin: account("admin"),
      nameless: { ...account("x"), preferred_username: "" },
      lengthy: { ...account("x"), preferred_username: "e".repeat(65) },
    },
  });
});
afterAll(() => o.close());
afterEach(() => o.provider.tamperIdTokens(undefined));

/** Users, sessions and role assignments: a refused sign-in changes none of them. */
async function fingerprint(): Promise<string> {
  const { rows } = await sql`select
    (select count(*) from app.users)::int as users,
    (select count(*) from app.sessions)::int as sessions,
    (select count(*) from app.oidc_sessions)::int as oidc_sessions,
    (select count(*) from app.user_roles)::int as roles`.execute(o.t.database.db);
  return JSON.stringify(rows[0]);
}

async function expectRefused(
  attempt: () => Promise<SignInOutcome>,
  code: string,
  usedUp = true,
): Promise<void> {
  const before = await fingerprint();
  const outcome = await attempt();
  expect(outcome.callback.statusCode, outcome.callback.body).toBe(302);
  expect(outcome.location).toBe(`/login?error=${code}`);
  expect(outcome.sessionCookie).toBeUndefined();
  expect(await fingerprint()).toBe(before);
  if (!usedUp) return;
  // The sign-in under way is used up whatever happened.
  const { rows } = await sql<{ n: number }>`select count(*)::int as n from app.oidc_logins
    where expires_at > now()`.execute(o.t.database.db);
  expect(rows[0].n).toBe(0);
}

describe("a company sign-in is refused, creating no user and no session,", () => {
  it("when the state was tampered with", () =>
    expectRefused(
      () =>
        companySignIn(o, "mallory", {
          alter: (answer, cookie) => {
            answer.searchParams.set("state", "forged-state");
            return { answer, cookie };
          },
        }),
      "state",
    ));

  it("when the browser has no sign-in under way (no cookie)", () =>
    expectRefused(
      () => companySignIn(o, "mallory", { alter: (answer) => ({ answer, cookie: undefined }) }),
      "expired",
      false, // nothing names it: it expires by itself
    ));

  it("when the sign-in under way is older than 10 minutes", () =>
    expectRefused(
      () =>
        companySignIn(o, "mallory", {
          alter: async (answer, cookie) => {
            await sql`update app.oidc_logins set expires_at = now() - interval '1 second'`.execute(
              o.t.database.db,
            );
            return { answer, cookie };
          },
        }),
      "expired",
    ));

  it("when the provider's answer comes a second time (state already used)", async () => {
    let replay: { answer: URL; cookie?: string } | undefined;
    const first = await companySignIn(o, "mallory", {
      alter: (answer, cookie) => {
        replay = { answer: new URL(answer), cookie };
        return { answer, cookie };
      },
    });
    expect(first.location).toBe("/login?signedin=1");
    const replayed = replay as { answer: URL; cookie?: string };
    await expectRefused(() => callback(o, replayed.answer, replayed.cookie), "expired");
  });

  it("when a used code comes back under a fresh sign-in (replayed code)", async () => {
    let used: URL | undefined;
    await companySignIn(o, "mallory", {
      alter: (answer, cookie) => {
        used = new URL(answer);
        return { answer, cookie };
      },
    });
    // The attacker starts a sign-in of their own and sends the old code with its state.
    await expectRefused(
      () =>
        companySignIn(o, "mallory", {
          alter: (answer, cookie) => {
            answer.searchParams.set("code", used?.searchParams.get("code") ?? "");
            return { answer, cookie };
          },
        }),
      "code",
    );
  });

  it("when the ID token was issued to another client (wrong audience)", () => {
    o.provider.tamperIdTokens((claims) => ({ ...claims, aud: "another-client", azp: undefined }));
    return expectRefused(() => companySignIn(o, "mallory"), "audience");
  });

  it("when the ID token has expired", () => {
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    o.provider.tamperIdTokens((claims) => ({ ...claims, iat: hourAgo - 600, exp: hourAgo }));
    return expectRefused(() => companySignIn(o, "mallory"), "token_expired");
  });

  it("when the ID token carries another sign-in's nonce", () => {
    o.provider.tamperIdTokens((claims) => ({ ...claims, nonce: "someone-elses-nonce" }));
    return expectRefused(() => companySignIn(o, "mallory"), "nonce");
  });

  it("when the ID token comes from another issuer", () => {
    o.provider.tamperIdTokens((claims) => ({ ...claims, iss: "http://127.0.0.1:1" }));
    return expectRefused(() => companySignIn(o, "mallory"), "issuer");
  });

  it("when the ID token's signature is not the provider's", () => {
    o.provider.tamperIdTokens((claims) => claims, { foreignKey: true });
    return expectRefused(() => companySignIn(o, "mallory"), "signature");
  });

  it("when the user cancels at the provider", () =>
    expectRefused(() => companySignIn(o, "mallory", { abort: true }), "denied"));

  it("when the provider sends no username", () =>
    expectRefused(() => companySignIn(o, "nameless"), "claims"));

  it("when a new account's username would be longer than a username may be", () =>
    expectRefused(() => companySignIn(o, "lengthy"), "claims"));

  it("when the username belongs to an account made here by hand", () =>
    expectRefused(() => companySignIn(o, "admin"), "conflict"));

  it("when the account has been removed", async () => {
    await sql`update app.users set is_deleted = true where username = 'mallory'`.execute(
      o.t.database.db,
    );
    await expectRefused(() => companySignIn(o, "mallory"), "removed");
  });
});

describe("when the provider cannot be reached", () => {
  it("GET /auth/oidc/login redirects to /login?error=unavailable", async () => {
    const { createTestApp } = await import("../../testing/test-app.ts");
    const t = await createTestApp({
      env: {
        OIDC_ISSUER: "http://127.0.0.1:9",
        OIDC_CLIENT_ID: "ledgerline",
        OIDC_ALLOW_INSECURE_HTTP: "1",
      },
    });
    try {
      const res = await t.app.inject({ method: "GET", url: "/auth/oidc/login" });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe("/login?error=unavailable");
    } finally {
      await t.close();
    }
  });
});
