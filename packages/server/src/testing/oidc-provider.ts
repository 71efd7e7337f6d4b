import { generateKeyPairSync, type KeyObject, sign } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The claims a test account signs in with (its login at the provider is the map key, and its `sub`). */
export interface TestAccount {
  preferred_username: string;
  name: string;
  email: string;
  groups: string[];
}

export type IdTokenClaims = Record<string, unknown>;

/**
 * A real OpenID Connect provider (oidc-provider) on 127.0.0.1, with its development login and
 * consent pages: any password is accepted for a login in `accounts`.
 */
export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The accounts by login; change them between sign-ins (groups, name). */
  accounts: Map<string, TestAccount>;
  /**
   * From now on the token endpoint answers ID tokens changed by `change` and signed again with the
   * provider's own key (or, with `foreignKey`, with another key under the same key id), so that
   * exactly one check of the client fails; undefined stops it.
   */
  tamperIdTokens(
    change: ((claims: IdTokenClaims) => IdTokenClaims) | undefined,
    options?: { foreignKey?: boolean },
  ): void;
  /**
   * Goes through the provider's pages as a browser would, from the authorization URL: posts the
   * login form (as `login`) and the consent form, and answers the URL the provider finally sends
   * the browser to (the client's redirect URI with code and state, or with an error).
   */
  signIn(authorizationUrl: string, login: string, options?: { abort?: boolean }): Promise<URL>;
  close(): Promise<void>;
}

export interface TestProviderOptions {
  /** The client's redirect URIs, e.g. `${PUBLIC_URL}/auth/oidc/callback`. */
  redirectUris: string[];
  postLogoutRedirectUris?: string[];
  accounts?: Record<string, TestAccount>;
  clientId?: string;
  clientSecret?: string;
}

const KID = "test-key-1";

function base64url(value: string | Buffer): string {
  return Buffer.from(value).toString("base64url");
}

function signJwt(claims: IdTokenClaims, key: KeyObject): string {
  const input = `${base64url(JSON.stringify({ alg: "RS256", typ: "JWT", kid: KID }))}.${base64url(JSON.stringify(claims))}`;
  return `${input}.${base64url(sign("sha256", Buffer.from(input), key))}`;
}

/** Starts the provider with one confidential client (PKCE required) on a free port of 127.0.0.1. */
export async function startOidcProvider(options: TestProviderOptions): Promise<TestProvider> {
  const clientId = options.clientId ?? "ledgerline";
  const clientSecret = options.clientSecret ?? "ledgerline-test-client-secret";
  const accounts = new Map(Object.entries(options.accounts ?? {}));
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const foreign = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
  let tamper: { change: (c: IdTokenClaims) => IdTokenClaims; key: KeyObject } | undefined;

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // The provider warns at length about its development defaults (and Node 20); not the tests' business.
  const { warn, info } = console;
  console.warn = () => {};
  console.info = () => {};
  let provider: import("oidc-provider").default;
  try {
    const { default: Provider } = await import("oidc-provider");
    provider = new Provider(issuer, {
      clients: [
        {
          client_id: clientId,
          client_secret: clientSecret,
          redirect_uris: options.redirectUris,
          post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
          grant_types: ["authorization_code"],
          response_types: ["code"],
        },
      ],
      pkce: { required: () => true },
      ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600 },
      jwks: {
        keys: [{ ...privateKey.export({ format: "jwk" }), kid: KID, alg: "RS256", use: "sig" }],
      },
      cookies: { keys: ["test-provider-cookie-key"] },
      scopes: ["openid", "profile", "email", "groups"],
      claims: {
        openid: ["sub"],
        profile: ["preferred_username", "name"],
        email: ["email"],
        groups: ["groups"],
      },
      features: {
        devInteractions: { enabled: true },
        rpInitiatedLogout: {
          enabled: true,
          // The default page, without its web font (the tests' browser has no internet).
          logoutSource: async (ctx: { body: unknown }, form: string) => {
            ctx.body = `<!DOCTYPE html><html><head><meta charset="utf-8"><title>Sign out</title></head>
<body><h1>Do you want to sign out?</h1>${form}
<button autofocus type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button type="submit" form="op.logoutForm">No, stay signed in</button></body></html>`;
          },
        },
      },
      findAccount: async (_ctx: unknown, sub: string) => {
        const account = accounts.get(sub);
        if (!account) return undefined;
        return { accountId: sub, claims: async () => ({ sub, ...accounts.get(sub) }) };
      },
      // Rendered errors name the cause, which is what a failing test needs to see.
      renderError: async (ctx: { body: unknown; type: string }, out: Record<string, string>) => {
        ctx.type = "text";
        ctx.body = `provider error: ${out.error}: ${out.error_description}`;
      },
    });
  } finally {
    console.warn = warn;
    console.info = info;
  }

  provider.use(async (ctx, next) => {
    await next();
    const body = ctx.body as { id_token?: string } | undefined;
    if (tamper && ctx.path === "/token" && typeof body?.id_token === "string") {
      const claims = JSON.parse(Buffer.from(body.id_token.split(".")[1], "base64url").toString());
      ctx.body = { ...body, id_token: signJwt(tamper.change(claims), tamper.key) };
    }
  });
  server.on("request", provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    tamperIdTokens: (change, tamperOptions = {}) => {
      tamper = change && { change, key: tamperOptions.foreignKey ? foreign : privateKey };
    },
    signIn: (authorizationUrl, login, signInOptions = {}) =>
      browse(authorizationUrl, options.redirectUris, login, signInOptions.abort ?? false),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser without JavaScript: keeps cookies, follows redirects, fills the two development forms. */
async function browse(
  start: string,
  redirectUris: string[],
  login: string,
  abort: boolean,
): Promise<URL> {
  const jar = new Map<string, string>();
  let url = new URL(start);
  let post: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    if (redirectUris.some((r) => url.href.startsWith(`${r}?`))) return url;
    const res = await fetch(url, {
      method: post ? "POST" : "GET",
      redirect: "manual",
      headers: {
        cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
        ...(post ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      body: post,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";");
      const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
      const gone = attributes.some(
        (a) => /expires=Thu, 01 Jan 1970/i.test(a) || /max-age=0/i.test(a),
      );
      if (gone || value === "") jar.delete(name.trim());
      else jar.set(name.trim(), value);
    }
    post = undefined;
    const location = res.headers.get("location");
    if (res.status >= 300 && res.status < 400 && location) {
      url = new URL(location, url);
      continue;
    }
    const html = await res.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action || !prompt)
      throw new Error(
        `the provider answered ${res.status} at ${url.pathname}: ${html.slice(0, 300)}`,
      );
    if (abort) {
      url = new URL(`${action}/abort`, url);
      continue;
    }
    url = new URL(action, url);
    post = new URLSearchParams(
      prompt === "login" ? { prompt, login, password: "any-password" } : { prompt },
    );
  }
  throw new Error(`no way back to the client from ${start}`);
}
