import type { FastifyInstance, FastifyRequest, RouteOptions } from "fastify";
import type { RawBuilder } from "kysely";
import { type CurrentUser, resolveSession, type SessionSettings } from "../auth/auth.service.ts";
import { type CallerCheck, KnownCallers } from "../auth/caller-check.ts";
import { dueForTouch, hashSecret } from "../auth/secrets.ts";
import { sessionStillSql } from "../auth/sessions.repository.ts";
import type { Db } from "../db/connection.ts";
import { AppError, ForbiddenError, UnauthorizedError } from "../errors.ts";
import { tokenStillSql } from "../tokens/tokens.repository.ts";
import { resolveToken, tokenHashOf } from "../tokens/tokens.service.ts";
import { consumeRateLimit } from "./rate-limit.ts";
import { type Access, policyOf, type RoutePolicy } from "./route-policy.ts";
import { sessionCookieOf } from "./session-cookie.ts";

const INVALID_TOKEN = "Invalid, expired or revoked API token";
const NOT_FOR_TOKENS = "This call is not open to API tokens";

declare module "fastify" {
  interface FastifyRequest {
    /** The signed-in caller; set on every route whose policy is not public. */
    user?: CurrentUser;
    /** Set when `user` comes from an earlier call and the route's read must confirm it (withCallerCheck). */
    callerCheck?: CallerCheck;
  }
  interface FastifyContextConfig {
    policy?: RoutePolicy;
  }
  interface FastifyInstance {
    /** Every registered route with its policy, for the enforcement tests and the OpenAPI check. */
    registeredRoutes: { method: string; url: string; policy: RoutePolicy }[];
  }
}

const FLAG_OF: Record<Exclude<Access, "public" | "signedIn">, keyof CurrentUser> = {
  admin: "isadmin",
  superadmin: "issuperadmin",
  dev: "isdev",
};

/** The caller of a route that requires a session (set by the guard), confirmed. */
export function currentUser(request: FastifyRequest): CurrentUser {
  if (!request.user) throw new UnauthorizedError();
  // Only withCallerCheck may hand out a caller that its statement has yet to confirm.
  if (request.callerCheck) throw new Error("This caller must be read through withCallerCheck");
  return request.user;
}

/** Attaches every route's policy at registration (refusing routes without one) and enforces it on each request. */
export function installGuard(app: FastifyInstance, db: Db, settings: SessionSettings): void {
  app.decorate("registeredRoutes", []);
  const knownSessions = new KnownCallers();
  const knownTokens = new KnownCallers();
  app.addHook("onRoute", (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      // Fastify adds a HEAD twin to every GET route; it shares the GET's policy.
      const policy =
        policyOf(method, route.url) ?? (method === "HEAD" ? policyOf("GET", route.url) : undefined);
      if (!policy)
        throw new Error(
          `Route ${method} ${route.url} has no entry in ROUTE_POLICY (http/route-policy.ts)`,
        );
      if (policy.checkInStatement && policy.access !== "signedIn")
        throw new Error(`Route ${method} ${route.url}: only signed-in reads check in statement`);
      route.config = { ...(route.config ?? {}), policy };
      app.registeredRoutes.push({ method, url: route.url, policy });
    }
  });

  // A refused WebSocket upgrade leaves a socket Node no longer manages (it is half-open by default):
  // close it once the refusal is sent, or every refused attempt would hold a socket forever.
  app.addHook("onResponse", async (request, reply) => {
    if (request.headers.upgrade && reply.statusCode !== 101) request.raw.socket?.destroy();
  });

  app.addHook("onRequest", async (request) => {
    const policy = request.routeOptions.config.policy;
    if (!policy) return; // no route matched: the not-found handler answers
    const upgrade = request.headers.upgrade?.toLowerCase() === "websocket";
    if (upgrade && !request.headers.origin)
      throw new ForbiddenError("Cross-origin request refused");
    if (upgrade || (request.method !== "GET" && request.method !== "HEAD")) {
      assertSameOrigin(request);
      assertFromPage(request);
    }
    assertBodyKind(request, policy);
    if (policy.access === "public") {
      if (policy.forPeople && carriesToken(request)) throw new ForbiddenError(NOT_FOR_TOKENS);
      return;
    }
    const bearer = bearerToken(request);
    const caller =
      bearer === undefined
        ? await callerOf(
            knownSessions,
            sessionCredential(db, settings, sessionCookieOf(request)),
            policy,
          )
        : await callerOf(knownTokens, tokenCredential(db, bearer, policy), policy);
    const { user } = caller;
    request.user = user;
    request.callerCheck = caller.check;
    if (policy.access !== "signedIn" && !user[FLAG_OF[policy.access]]) throw new ForbiddenError();
    if (policy.rateLimit) {
      await consumeRateLimit(db, `${request.routeOptions.url}:${user.userId}`, policy.rateLimit);
    }
  });
}

/** Whether the call carries an `Authorization: Bearer` header (another scheme, a proxy's Basic, is not a token). */
function carriesToken(request: FastifyRequest): boolean {
  return /^bearer\s/i.test(request.headers.authorization ?? "");
}

/** The secret of an `Authorization: Bearer` header, if the call carries one. */
function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const [scheme, secret] = header.split(" ");
  if (scheme?.toLowerCase() !== "bearer" || !secret)
    throw new UnauthorizedError("Invalid API token");
  return secret;
}

/** A session cookie or an API token, and how to read and to check its caller. */
interface Credential {
  /** What its caller is known by (KnownCallers). */
  hash: string;
  /** Reads the caller now; throws what the call must answer when there is none. */
  read(): Promise<CurrentUser>;
  /** The condition that confirms a caller read before (CallerCheck). */
  stillSql(caller: CurrentUser): RawBuilder<boolean>;
  /** Refuses a caller read before that may not make this call (a token's scope). */
  admit(caller: CurrentUser): void;
}

/**
 * The caller of a credential. On a route that checks its caller in its own statement, a caller this
 * instance read for an earlier call is taken as it was, with the check to carry, until its last use
 * is due to be written again (a minute); otherwise it is read now.
 */
async function callerOf(
  known: KnownCallers,
  credential: Credential,
  policy: RoutePolicy,
): Promise<{ user: CurrentUser; check?: CallerCheck }> {
  const reread = async () => {
    const caller = await credential.read().catch((error: unknown) => {
      known.forget(credential.hash);
      throw error;
    });
    known.remember(credential.hash, caller);
    credential.admit(caller);
    return caller;
  };
  const earlier = policy.checkInStatement ? known.get(credential.hash) : undefined;
  if (!earlier || dueForTouch(earlier.lastSeenAt)) return { user: await reread() };
  credential.admit(earlier);
  return { user: earlier, check: { condition: credential.stillSql(earlier), reread } };
}

function sessionCredential(
  db: Db,
  settings: SessionSettings,
  sessionId: string | undefined,
): Credential {
  if (!sessionId) throw new UnauthorizedError();
  const hash = hashSecret(sessionId);
  return {
    hash,
    read: async () => {
      const session = await resolveSession(db, settings, hash);
      if (!session) throw new UnauthorizedError();
      return session;
    },
    stillSql: (caller) => sessionStillSql(hash, settings.idleMinutes, caller.fingerprint),
    admit: () => undefined,
  };
}

/** An API token: its user, if the route is open to tokens of its scope. */
function tokenCredential(db: Db, secret: string, policy: RoutePolicy): Credential {
  const hash = tokenHashOf(secret);
  if (!hash) throw new UnauthorizedError(INVALID_TOKEN);
  const admit = (caller: CurrentUser) => {
    if (!policy.token) throw new ForbiddenError(NOT_FOR_TOKENS);
    if (policy.token === "write" && caller.token?.scope === "read")
      throw new ForbiddenError("A read token cannot make changes");
  };
  return {
    hash,
    read: async () => {
      const found = await resolveToken(db, hash);
      if (!found) throw new UnauthorizedError(INVALID_TOKEN);
      const { tokenId, scope, ...user } = found;
      return { ...user, token: { id: tokenId, scope } };
    },
    stillSql: (caller) => tokenStillSql(hash, caller.fingerprint),
    admit,
  };
}

// Browsers send Origin on cross-site POSTs; a foreign one is refused. Clients without it (scripts) pass.
function assertSameOrigin(request: FastifyRequest): void {
  const origin = request.headers.origin;
  if (!origin) return;
  let same: boolean;
  try {
    const from = new URL(origin);
    // Normalised through URL so that "host:80" and "host" compare equal for http.
    same = new URL(`${from.protocol}//${request.host}`).host === from.host;
  } catch {
    same = false;
  }
  if (!same) throw new ForbiddenError("Cross-origin request refused");
}

/**
 * A change made with the session cookie must come from one of the app's own pages: browsers send
 * Origin (checked above) or Sec-Fetch-Site on every such call, so a call with neither, or a
 * Sec-Fetch-Site other than same-origin, did not come from a page of ours (a form of an old
 * browser, a plug-in). Scripts carry an API token, never the cookie, and are not concerned.
 */
function assertFromPage(request: FastifyRequest): void {
  if (!sessionCookieOf(request) || carriesToken(request) || request.headers.origin) return;
  if (request.headers["sec-fetch-site"] !== "same-origin")
    throw new ForbiddenError("Changes made with a session must come from this application's pages");
}

const MEDIA_TYPES: Record<Exclude<RoutePolicy["body"], "none">, string> = {
  json: "application/json",
  form: "application/x-www-form-urlencoded",
  multipart: "multipart/form-data",
};

function assertBodyKind(request: FastifyRequest, policy: RoutePolicy): void {
  if (policy.body === "none" || request.method === "GET" || request.method === "HEAD") return;
  const type = (request.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
  const length = Number(request.headers["content-length"] ?? 0);
  if (type === "" && length === 0 && !request.headers["transfer-encoding"]) return;
  if (type !== MEDIA_TYPES[policy.body]) {
    throw new AppError(415, `This call accepts ${MEDIA_TYPES[policy.body]} only`);
  }
}
