import type { RateLimit } from "./rate-limit.ts";

/**
 * Who may call a route: `public` needs nothing; `signedIn` a session; `admin`, `superadmin`, `dev` the
 * profile flag.
 */
export type Access = "public" | "signedIn" | "admin" | "superadmin" | "dev";

/** What a JSON route accepts as body; checked before parsing so a wrong type answers 415. */
export type BodyKind = "none" | "json" | "form" | "multipart";

/**
 * The per-type right a route's service checks on the entity type the call names, from the caller's
 * roles in that context (`createOrEdit`: create for new records, edit for existing ones; `member`:
 * any role in the context; `publish`: the context's publish right, granted under "*").
 */
export type TypePermission =
  | "read"
  | "create"
  | "edit"
  | "delete"
  | "approve"
  | "publish"
  | "createOrEdit"
  | "member";

export interface RoutePolicy {
  access: Access;
  body: BodyKind;
  typePermission?: TypePermission;
  /** Expensive calls: at most `max` per user per window, counted in the database. */
  rateLimit?: RateLimit;
  /** Errors answer plain text instead of `{message}` (SPEC.md: upload, cron, ping, import). */
  textErrors?: boolean;
  /**
   * The scope an API token needs to call the route (`write` tokens may also read); without it,
   * tokens are refused: sign-in, sessions, token management and the WebSocket are for people.
   */
  token?: TokenScope;
  /**
   * A public route that sets or ends a person's session (sign-in, sign-out, company sign-in): a
   * call carrying an API token is refused, so that a token never gets a cookie.
   */
  forPeople?: true;
  /**
   * A read whose statement checks the session itself (withCallerCheck): a caller read by an earlier
   * call is reused, saving the session's round trip. Only for signed-in reads without side effects.
   */
  checkInStatement?: true;
}

/** What an API token may do: read, or read and change. */
export type TokenScope = "read" | "write";

const pub = (body: BodyKind = "none"): RoutePolicy => ({ access: "public", body });
/** Signing in and out: public, and refused to API tokens. */
const session = (body: BodyKind = "none"): RoutePolicy => ({ ...pub(body), forPeople: true });
const signedIn = (typePermission?: TypePermission, body: BodyKind = "json"): RoutePolicy => ({
  access: "signedIn",
  body,
  ...(typePermission ? { typePermission } : {}),
});
const text = (policy: RoutePolicy): RoutePolicy => ({ ...policy, textErrors: true });
const limited = (policy: RoutePolicy, max: number, windowSeconds = 60): RoutePolicy => ({
  ...policy,
  rateLimit: { max, windowSeconds },
});
const admin = (body: BodyKind = "json"): RoutePolicy => ({ access: "admin", body });
/** Open to API tokens of any scope. */
const reads = (policy: RoutePolicy): RoutePolicy => ({ ...policy, token: "read" });
/** Open to API tokens of the write scope. */
const writes = (policy: RoutePolicy): RoutePolicy => ({ ...policy, token: "write" });
const dev = (body: BodyKind = "none"): RoutePolicy => ({ access: "dev", body });

/**
 * Every route of the server, "METHOD /url" as Fastify registers it, with the access it needs. A
 * route missing here stops the server at start (see guard.ts), so nothing is ever served without a
 * declared policy; the enforcement test checks every route against this table for every kind of
 * user. Keys ending in `*` cover a route prefix registered by a plugin.
 */
export const ROUTE_POLICY: Readonly<Record<string, RoutePolicy>> = {
  "GET /healthz": pub(),
  "GET /readyz": pub(),
  "GET /app-config.json": pub(),
  "POST /auth/login": session("form"),
  "POST /auth/logout": session("none"),
  // Company sign-in: registered only when OIDC_ISSUER is set, so declared as prefixes (which need
  // no route to exist); the first prefix that matches wins, the profile's comes first.
  "GET /auth/oidc/profile*": signedIn(undefined, "none"),
  "GET /auth/oidc/*": session(),

  "POST /api/ping": reads(signedIn()),
  "POST /api/context": reads(signedIn("member")),
  "POST /api/contexts": reads(signedIn()),
  "POST /api/allcontexts": reads(admin()),

  "POST /api/entitytypes": reads(signedIn()),
  "POST /api/entitytype": reads(signedIn("read")),
  "POST /api/entity": { ...reads(signedIn("read")), checkInStatement: true },
  "POST /api/save": writes(signedIn("createOrEdit")),
  "POST /api/delete": writes(signedIn("delete")),
  "POST /api/history": reads(signedIn("read")),
  "POST /api/query-xlsx": reads(limited(signedIn("read"), 30)),
  "POST /api/xlsxgen": reads(limited(signedIn(), 30)),
  "POST /api/compare": reads(signedIn("read")),
  "POST /api/tree-children": reads(signedIn("read")),
  "POST /api/tree-path": reads(signedIn("read")),
  "POST /api/compare-xlsx": reads(limited(signedIn("read"), 30)),
  "POST /api/approved-uploads": reads(signedIn("read")),
  "POST /api/changes": reads(signedIn("read")),
  // Every type the caller may read, of any application: no right to check on one type.
  "POST /api/search": { ...reads(signedIn()), checkInStatement: true },

  "POST /api/filelayouts": reads(signedIn()),
  "POST /api/upload": writes(limited(text(signedIn("createOrEdit", "multipart")), 20)),
  "POST /api/upload-problems": reads(limited(signedIn(), 30)),

  "GET /data-dictionary/connection-files": reads(signedIn("read", "none")),
  "POST /data-dictionary/validate-cron-string": reads(text(signedIn())),
  "POST /data-dictionary/ping-metadata-source": reads(limited(text(signedIn("read")), 30)),
  "POST /data-dictionary/object-details": reads(signedIn("read")),
  "POST /data-dictionary/import-metadata-from-source": writes(
    limited(text(signedIn("createOrEdit")), 10),
  ),

  "POST /api/publishdatadictionary": writes(limited(signedIn("publish", "none"), 10)),
  "GET /ws/publish": signedIn("publish", "none"),

  "POST /api/getpendingsummary": reads(signedIn()),
  "POST /api/pendingchangesets": reads(signedIn("read")),
  "POST /api/approve": writes(signedIn("approve")),
  "POST /api/reject": writes(signedIn("approve")),
  "POST /api/actions": reads(signedIn("read")),
  "POST /api/runaction": writes(signedIn("approve")),

  "POST /api/getusers": reads(admin()),
  // Users and roles are managed by people: a leaked token must not be able to make an account an
  // administrator, grant roles or set a password that outlives the token.
  "POST /api/createuser": admin(),
  "POST /api/updateuser": admin(),
  "POST /api/removeuser": admin(),
  "POST /api/getroles": reads(admin()),
  "POST /api/getrolesbycontext": reads(admin()),
  "POST /api/getrolesbyusername": reads(admin()),
  "POST /api/addrole": admin(),
  "POST /api/removerole": admin(),

  "POST /api/notifications/settings": reads(signedIn()),
  "POST /api/notifications/updatesetting": writes(signedIn()),
  "POST /api/notifications/users": reads(admin()),
  "POST /api/notifications/outbox": reads(admin()),
  "POST /api/waiting": reads(signedIn()),

  // Tokens are managed by people signed in, never with a token.
  "POST /api/tokens/list": signedIn(),
  "POST /api/tokens/create": signedIn(),
  "POST /api/tokens/revoke": signedIn(),
  "POST /api/tokens/all": admin(),

  // Webhooks send an application's data to an address outside: registered by administrators
  // signed in as people, never with a token (a leaked one must not be able to add a receiver).
  "POST /api/webhooks/list": admin(),
  "POST /api/webhooks/create": admin(),
  "POST /api/webhooks/update": admin(),
  "POST /api/webhooks/rotate": admin(),
  "POST /api/webhooks/pause": admin(),
  "POST /api/webhooks/resume": admin(),
  "POST /api/webhooks/remove": admin(),
  "POST /api/webhooks/deliveries": admin(),
  "POST /api/webhooks/resend": admin(),

  // The security audit trail: administrators, signed in as people. No token, even a read one: a
  // leaked token must not tell its holder who signs in from where.
  "POST /api/audit/list": admin(),
  "POST /api/audit/export": limited(admin(), 30),

  // A person's own account, never with a token: a leaked token must not be able to set a new
  // password or e-mail address and so take the account over. Each change costs two argon2 runs.
  "POST /api/account/profile": signedIn(),
  "POST /api/account/password": limited(signedIn(), 10),
  "POST /api/account/email": limited(signedIn(), 10),

  // The whole database, password and token hashes included: super administrators, and tokens only
  // of the write scope (a read token is what scripts that only read are handed).
  "POST /api/backup": writes({ access: "superadmin", body: "none" }),

  // Registered only with METRICS_TOKEN set, so declared as a prefix (which needs no route to
  // exist); the route checks that token itself.
  "GET /metrics*": pub(),

  "GET /api/openapi.json": reads(dev()),
  "GET /api/docs*": reads(dev()),
  "HEAD /api/docs*": reads(dev()),

  // The built web app's files and the SPA fallback.
  "GET /*": pub(),
  "HEAD /*": pub(),
};

/** The policy of a registered route, or undefined when the table has none. */
export function policyOf(method: string, url: string): RoutePolicy | undefined {
  const exact = ROUTE_POLICY[`${method} ${url}`];
  if (exact) return exact;
  for (const [key, policy] of Object.entries(ROUTE_POLICY)) {
    if (!key.endsWith("*") || key === `${method} /*`) continue;
    if (`${method} ${url}`.startsWith(key.slice(0, -1))) return policy;
  }
  return undefined;
}

const RESERVED_PREFIXES = ["/api", "/auth", "/data-dictionary", "/ws", "/metrics"];

/** Paths that belong to the server, never to the web app. */
export function isReserved(url: string): boolean {
  return RESERVED_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));
}
