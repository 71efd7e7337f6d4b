import { writeFileSync } from "node:fs";
import path from "node:path";
import {
  startOidcProvider,
  type TestProvider,
} from "../../packages/server/src/testing/oidc-provider.ts";

/** The login button reads 'Sign in with <label>'. */
export const OIDC_LABEL = "Example SSO";

/** The account at the provider the tests sign in as (the provider takes any password). */
export const companyUser = {
  login: "casey",
  name: "Casey Company",
  email: "casey@example.com",
  groups: ["ledgerline-readers"],
} as const;

let provider: TestProvider | undefined;

/**
 * Starts a real OpenID Connect provider (oidc-provider, with its own login and consent pages) for
 * the server at baseURL, writes the group mapping into dataDir, and answers the server's OIDC_*
 * settings. The issuer goes to E2E_OIDC_ISSUER for the workers.
 */
export async function startOidcForE2e(
  baseURL: string,
  dataDir: string,
): Promise<Record<string, string>> {
  provider = await startOidcProvider({
    redirectUris: [`${baseURL}/auth/oidc/callback`],
    postLogoutRedirectUris: [`${baseURL}/login`],
    accounts: {
      [companyUser.login]: {
        preferred_username: companyUser.login,
        name: companyUser.name,
        email: companyUser.email,
        groups: [...companyUser.groups],
      },
    },
  });
  const mapping = path.join(dataDir, "role-mapping.yaml");
  writeFileSync(
    mapping,
    "groups:\n  ledgerline-readers:\n    roles: [{ context: reference, role: viewer }]\n",
  );
  process.env.E2E_OIDC_ISSUER = provider.issuer;
  return {
    OIDC_ISSUER: provider.issuer,
    OIDC_CLIENT_ID: provider.clientId,
    OIDC_CLIENT_SECRET: provider.clientSecret,
    OIDC_SCOPES: "openid profile email groups",
    OIDC_BUTTON_LABEL: OIDC_LABEL,
    OIDC_ROLE_MAPPING: mapping,
    // The provider runs on http://127.0.0.1: allowed for tests only.
    OIDC_ALLOW_INSECURE_HTTP: "1",
  };
}

/** Stops the provider started by startOidcForE2e (global-teardown.ts). */
export async function stopOidcForE2e(): Promise<void> {
  await provider?.close();
  provider = undefined;
}
