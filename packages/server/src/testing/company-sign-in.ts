import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { LightMyRequestResponse } from "fastify";
import { startOidcProvider, type TestAccount, type TestProvider } from "./oidc-provider.ts";
import { createTestApp, type TestApp } from "./test-app.ts";

/** The address the test server pretends to be reached at (only its callback URL matters). */
export const TEST_PUBLIC_URL = "http://ledgerline.test";
export const CALLBACK_URL = `${TEST_PUBLIC_URL}/auth/oidc/callback`;

/** A test server with company sign-in against a real provider on 127.0.0.1. */
export interface OidcTestApp {
  t: TestApp;
  provider: TestProvider;
  close(): Promise<void>;
}

/** Starts the provider, then a test server configured for it (OIDC_* variables, optional mapping file text). */
export async function createOidcTestApp(
  options: {
    accounts?: Record<string, TestAccount>;
    mapping?: string;
    env?: Record<string, string>;
  } = {},
): Promise<OidcTestApp> {
  const provider = await startOidcProvider({
    redirectUris: [CALLBACK_URL],
    postLogoutRedirectUris: [`${TEST_PUBLIC_URL}/login`],
    accounts: options.accounts,
  });
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-oidc-"));
  const mappingFile = path.join(dir, "role-mapping.yaml");
  if (options.mapping !== undefined) await fs.writeFile(mappingFile, options.mapping);
  try {
    const t = await createTestApp({
      env: {
        PUBLIC_URL: TEST_PUBLIC_URL,
        OIDC_ISSUER: provider.issuer,
        OIDC_CLIENT_ID: provider.clientId,
        OIDC_CLIENT_SECRET: provider.clientSecret,
        OIDC_SCOPES: "openid profile email groups",
        OIDC_BUTTON_LABEL: "Example SSO",
        OIDC_ALLOW_INSECURE_HTTP: "1",
        ...(options.mapping !== undefined ? { OIDC_ROLE_MAPPING: mappingFile } : {}),
        ...options.env,
      },
    });
    return {
      t,
      provider,
      close: async () => {
        await t.close();
        await provider.close();
        await fs.rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await provider.close();
    throw error;
  }
}

/** What a browser sees of a company sign-in: the callback's answer and where it redirects. */
export interface SignInOutcome {
  callback: LightMyRequestResponse;
  /** The callback's Location, e.g. `/login?signedin=1` or `/login?error=state`. */
  location: string;
  /** `ledgerline_session=<id>` when a session was opened. */
  sessionCookie: string | undefined;
}

/**
 * Signs in through the provider as a browser would: GET /auth/oidc/login (keeping its cookie), the
 * provider's login and consent pages, then the callback. `alter` may change the provider's answer
 * or the cookie before the callback sees them.
 */
export async function companySignIn(
  app: OidcTestApp,
  login: string,
  options: {
    next?: string;
    abort?: boolean;
    alter?: (
      answer: URL,
      cookie: string | undefined,
    ) => { answer: URL; cookie?: string } | Promise<{ answer: URL; cookie?: string }>;
  } = {},
): Promise<SignInOutcome> {
  const start = await app.t.app.inject({
    method: "GET",
    url: `/auth/oidc/login${options.next ? `?next=${encodeURIComponent(options.next)}` : ""}`,
  });
  if (start.statusCode !== 302) throw new Error(`login answered ${start.statusCode} ${start.body}`);
  const loginCookie = start.cookies.find((c) => c.name === "ledgerline_oidc")?.value;
  const answer = await app.provider.signIn(String(start.headers.location), login, options);
  const altered = (await options.alter?.(answer, loginCookie)) ?? { answer, cookie: loginCookie };
  return callback(app, altered.answer, altered.cookie);
}

/** Delivers a provider answer (the redirect URL) to the callback, with the sign-in cookie if any. */
export async function callback(
  app: OidcTestApp,
  answer: URL,
  loginCookie: string | undefined,
): Promise<SignInOutcome> {
  const res = await app.t.app.inject({
    method: "GET",
    url: `${answer.pathname}${answer.search}`,
    headers: loginCookie ? { cookie: `ledgerline_oidc=${loginCookie}` } : {},
  });
  const session = res.cookies.find((c) => c.name === "ledgerline_session" && c.value !== "");
  return {
    callback: res,
    location: String(res.headers.location ?? ""),
    sessionCookie: session ? `${session.name}=${session.value}` : undefined,
  };
}
