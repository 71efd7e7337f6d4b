import * as client from "openid-client";
import type { OidcConfig } from "../../config.ts";

// Metadata rarely changes; keys rotate without it (openid-client refetches the JWKS on an unknown key).
const REDISCOVER_MS = 60 * 60 * 1000;
const TIMEOUT_SECONDS = 10;

const discovered = new WeakMap<
  OidcConfig,
  { at: number; configuration: Promise<client.Configuration> }
>();

/** The provider as openid-client knows it (discovery once an hour per server; a failed discovery is not kept). */
export function providerOf(oidc: OidcConfig): Promise<client.Configuration> {
  const hit = discovered.get(oidc);
  if (hit && Date.now() - hit.at < REDISCOVER_MS) return hit.configuration;
  const configuration = discover(oidc);
  discovered.set(oidc, { at: Date.now(), configuration });
  configuration.catch(() => {
    if (discovered.get(oidc)?.configuration === configuration) discovered.delete(oidc);
  });
  return configuration;
}

async function discover(oidc: OidcConfig): Promise<client.Configuration> {
  const insecure = oidc.allowInsecureHttp ? [client.allowInsecureRequests] : [];
  const found = await client.discovery(
    new URL(oidc.issuer),
    oidc.clientId,
    undefined,
    client.None(),
    {
      execute: insecure,
      timeout: TIMEOUT_SECONDS,
    },
  );
  const server = found.serverMetadata();
  const configuration = new client.Configuration(
    server,
    oidc.clientId,
    oidc.clientSecret ? { client_secret: oidc.clientSecret } : undefined,
    clientAuthentication(oidc.clientSecret, server.token_endpoint_auth_methods_supported),
  );
  configuration.timeout = TIMEOUT_SECONDS;
  for (const apply of insecure) apply(configuration);
  // openid-client trusts TLS for an ID token straight from the token endpoint; check its signature
  // too (against the provider's JWKS), since it is kept and sent back as the sign-out hint.
  client.enableNonRepudiationChecks(configuration);
  return configuration;
}

/** client_secret_basic, the default of OpenID Connect, unless the provider only takes client_secret_post. */
function clientAuthentication(
  secret: string | undefined,
  supported: readonly string[] | undefined,
): client.ClientAuth {
  if (!secret) return client.None();
  const methods = supported ?? ["client_secret_basic"];
  return !methods.includes("client_secret_basic") && methods.includes("client_secret_post")
    ? client.ClientSecretPost(secret)
    : client.ClientSecretBasic(secret);
}
