import { timingSafeEqual } from "node:crypto";
import { safeReturnPath, USERNAME_MAX } from "@ledgerline/contract";
import * as client from "openid-client";
import { grantRoles } from "../../admin/roles.repository.ts";
import { usernameTaken } from "../../admin/users.repository.ts";
import {
  type RightsChange,
  recordFlagChange,
  recordRoleChanges,
  recordSecurityEvent,
  recordSignIn,
} from "../../audit/audit.service.ts";
import type { OidcConfig } from "../../config.ts";
import type { Db } from "../../db/connection.ts";
import { openSession, type SessionSettings } from "../auth.service.ts";
import { hashPassword } from "../password.ts";
import { hashSecret, randomSecret } from "../secrets.ts";
import { identityOf, type OidcIdentity } from "./identity.ts";
import * as repo from "./oidc.repository.ts";
import { providerOf } from "./oidc-client.ts";
import { OidcRefusal, refusalOf } from "./oidc-errors.ts";
import { grantsOf, type MappedGrants, type RoleMapping } from "./role-mapping.ts";

/** Minutes between leaving for the provider and coming back before the sign-in is refused. */
export const LOGIN_MINUTES = 10;

export interface OidcDeps {
  db: Db;
  oidc: OidcConfig;
  /** undefined: no mapping file, a sign-in leaves roles and flags alone. */
  mapping: RoleMapping | undefined;
  sessions: SessionSettings;
}

async function provider(oidc: OidcConfig): Promise<client.Configuration> {
  try {
    return await providerOf(oidc);
  } catch (error) {
    throw new OidcRefusal("unavailable", "the provider's discovery document cannot be read", {
      cause: error,
    });
  }
}

/**
 * Starts a company sign-in: keeps state, nonce, PKCE verifier and the return path in the database
 * under a random id (for the browser's cookie) and answers the provider's authorization URL.
 */
export async function startSignIn(
  deps: OidcDeps,
  next: string | undefined,
): Promise<{ url: string; loginId: string }> {
  const configuration = await provider(deps.oidc);
  const loginId = randomSecret();
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  await repo.deleteExpiredLogins(deps.db);
  await repo.insertLogin(deps.db, {
    loginHash: hashSecret(loginId),
    state,
    nonce,
    codeVerifier,
    returnTo: safeReturnPath(next),
    minutes: LOGIN_MINUTES,
  });
  const url = client.buildAuthorizationUrl(configuration, {
    redirect_uri: deps.oidc.redirectUri,
    scope: deps.oidc.scopes,
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: "S256",
  });
  return { url: url.href, loginId };
}

function sameText(a: string | null, b: string): boolean {
  if (a === null) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * Finishes a company sign-in from the provider's answer: the sign-in under way is used up first,
 * then state, code (with the PKCE verifier) and ID token (issuer, audience, signature, expiry,
 * nonce) are checked. On success the user is found or created, name, e-mail, roles and flags are
 * brought in line with the claims, and a session is opened, all in one transaction; any refusal
 * throws an OidcRefusal and leaves nothing behind but its record in the audit trail. `ip` is the
 * client's address as the server sees it.
 */
export async function finishSignIn(
  deps: OidcDeps,
  loginId: string | undefined,
  query: URLSearchParams,
  ip: string,
): Promise<{ sessionId: string; returnTo: string }> {
  const seen: { username?: string } = {};
  try {
    return await checkAndSignIn(deps, loginId, query, ip, seen);
  } catch (error) {
    const refusal = refusalOf(error);
    await recordSecurityEvent(deps.db, {
      kind: "sign-in-failed",
      actor: seen.username ?? null,
      subject: seen.username ?? null,
      ip,
      detail: { method: "oidc", reason: refusal.code, message: refusal.message },
    });
    throw error;
  }
}

/** finishSignIn's work; `seen` learns the username once the provider has named it. */
async function checkAndSignIn(
  deps: OidcDeps,
  loginId: string | undefined,
  query: URLSearchParams,
  ip: string,
  seen: { username?: string },
): Promise<{ sessionId: string; returnTo: string }> {
  const login = loginId ? await repo.takeLogin(deps.db, hashSecret(loginId)) : undefined;
  if (!login)
    throw new OidcRefusal(
      "expired",
      "no sign-in under way for this browser (no cookie, already used, or older than 10 minutes)",
    );
  if (!sameText(query.get("state"), login.state))
    throw new OidcRefusal("state", "the state does not match the sign-in under way");

  const configuration = await provider(deps.oidc);
  const currentUrl = new URL(deps.oidc.redirectUri);
  currentUrl.search = query.toString();
  let identity: OidcIdentity;
  let idToken: string;
  try {
    const tokens = await client.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: login.codeVerifier,
      expectedState: login.state,
      expectedNonce: login.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims || !tokens.id_token)
      throw new OidcRefusal("failed", "the provider sent no ID token");
    // Providers differ in what the ID token carries; UserInfo fills in the rest.
    const info = configuration.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(configuration, tokens.access_token, idClaims.sub)
      : {};
    identity = identityOf({ ...info, ...idClaims }, deps.oidc.claims);
    seen.username = identity.username;
    idToken = tokens.id_token;
  } catch (error) {
    throw refusalOf(error);
  }

  const sessionId = await deps.db.transaction().execute(async (tx) => {
    const userId = await signInUser(tx, identity, deps.mapping, ip);
    await recordSignIn(tx, identity.username, ip, "oidc");
    const sessionId = await openSession(tx, deps.sessions, userId);
    await repo.insertOidcSession(tx, hashSecret(sessionId), idToken);
    return sessionId;
  });
  return { sessionId, returnTo: login.returnTo };
}

// A random password nobody ever sees: password sign-in fails for the user, with the usual timing.
function unusablePasswordHash(): Promise<string> {
  return hashPassword(randomSecret());
}

/** Finds or creates the user of a provider account and applies claims and group mapping; answers the user id. */
async function signInUser(
  tx: Db,
  identity: OidcIdentity,
  mapping: RoleMapping | undefined,
  ip: string,
): Promise<number> {
  let user = await repo.findUserBySubject(tx, identity.subject);
  if (user?.is_deleted)
    throw new OidcRefusal("removed", `the account '${user.username}' has been removed`);
  if (user) {
    await repo.updateNameAndEmail(tx, user.user_id, identity);
  } else {
    // Only a new account's name must fit what every user call accepts: one made from a longer
    // claim could be given roles but never edited or removed. Existing accounts sign in as before.
    if (identity.username.length > USERNAME_MAX)
      throw new OidcRefusal(
        "claims",
        `the username '${identity.username.slice(0, USERNAME_MAX)}...' is longer than the ${USERNAME_MAX} characters a username may have`,
      );
    // Taking over an account made here by hand would let the provider's users claim any name.
    if (await usernameTaken(tx, identity.username))
      throw new OidcRefusal(
        "conflict",
        `the username '${identity.username}' belongs to an account not made by company sign-in`,
      );
    user = await repo.insertOidcUser(tx, {
      ...identity,
      passwordHash: await unusablePasswordHash(),
    });
    await recordSecurityEvent(tx, {
      kind: "user-created",
      actor: user.username,
      subject: user.username,
      ip,
      detail: { via: "company sign-in" },
    });
  }
  const change = { actor: user.username, subject: user.username, ip };
  if (mapping) await applyMapping(tx, user, grantsOf(mapping, identity.groups), change);
  return user.user_id;
}

/** Grants the mapped roles, takes back the mapped roles the groups no longer give (hand-granted ones stay), and sets the flags. */
async function applyMapping(
  tx: Db,
  user: repo.OidcUserRow,
  wanted: MappedGrants,
  change: RightsChange,
): Promise<void> {
  const held = await repo.rolesGrantedByMapping(tx, user.user_id);
  const stale = held.filter(
    (h) => !wanted.roles.some((w) => w.context === h.context && w.role === h.role),
  );
  await repo.revokeMappedRoles(tx, user.user_id, stale);
  const granted = await grantRoles(
    tx,
    wanted.roles.map((r) => ({ userId: user.user_id, ...r })),
    repo.OIDC_GRANTOR,
  );
  await recordRoleChanges(tx, change, { granted, revoked: stale }, MAPPING);
  const flags = nextFlags(user, wanted);
  const changed = (Object.keys(flags) as (keyof typeof flags)[]).some((k) => flags[k] !== user[k]);
  if (changed) await repo.setFlags(tx, user.user_id, flags);
  for (const flag of ["isadmin", "isdev"] as const)
    if (flags[flag] !== user[flag]) await recordFlagChange(tx, change, flag, flags[flag], MAPPING);
}

/** How the audit trail names rights the group mapping gave or took. */
const MAPPING = "group mapping";

/**
 * The administrator and developer flags after a sign-in: a group that gives a flag sets it (and
 * marks it as the mapping's); when no group gives it any more, the flag is taken back only if the
 * mapping had set it. A super administrator keeps isadmin whatever the groups say.
 */
export function nextFlags(
  user: Pick<
    repo.OidcUserRow,
    "isadmin" | "isdev" | "issuperadmin" | "oidc_isadmin" | "oidc_isdev"
  >,
  wanted: Pick<MappedGrants, "isadmin" | "isdev">,
): Pick<repo.OidcUserRow, "isadmin" | "isdev" | "oidc_isadmin" | "oidc_isdev"> {
  const flag = (held: boolean, byMapping: boolean, give: boolean, keep: boolean) => {
    if (give) return held ? { held, byMapping } : { held: true, byMapping: true };
    if (byMapping) return { held: keep, byMapping: false };
    return { held, byMapping };
  };
  const admin = flag(user.isadmin, user.oidc_isadmin, wanted.isadmin, user.issuperadmin);
  const dev = flag(user.isdev, user.oidc_isdev, wanted.isdev, false);
  return {
    isadmin: admin.held,
    oidc_isadmin: admin.byMapping,
    isdev: dev.held,
    oidc_isdev: dev.byMapping,
  };
}

/**
 * Where the browser signs out at the provider after this session ends: its end-session URL with the
 * session's ID token as hint, or undefined (a password session, or a provider without one).
 */
export async function providerSignOutUrl(
  db: Db,
  oidc: OidcConfig,
  sessionId: string,
): Promise<string | undefined> {
  const idToken = await repo.findIdToken(db, hashSecret(sessionId));
  if (!idToken) return undefined;
  const configuration = await providerOf(oidc).catch(() => undefined);
  if (!configuration?.serverMetadata().end_session_endpoint) return undefined;
  return client.buildEndSessionUrl(configuration, {
    id_token_hint: idToken,
    post_logout_redirect_uri: oidc.postLogoutRedirectUri,
  }).href;
}
