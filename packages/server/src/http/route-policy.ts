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
 * any role in the context).
 */
export type TypePermission =
  | "read"
  | "create"
  | "edit"
  | "delete"
  | "approve"
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
}

const pub = (body: BodyKind = "none"): RoutePolicy => ({ access: "public", body });
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
  "POST /auth/login": pub("form"),
  "POST /auth/logout": pub("none"),

  "POST /api/ping": signedIn(),
  "POST /api/context": signedIn("member"),
  "POST /api/contexts": signedIn(),
  "POST /api/allcontexts": admin(),

  "POST /api/entitytypes": signedIn(),
  "POST /api/entitytype": signedIn("read"),
  "POST /api/entity": signedIn("read"),
  "POST /api/save": signedIn("createOrEdit"),
  "POST /api/delete": signedIn("delete"),
  "POST /api/history": signedIn("read"),
  "POST /api/query-xlsx": limited(signedIn("read"), 30),
  "POST /api/xlsxgen": limited(signedIn(), 30),

  "POST /api/filelayouts": signedIn(),
  "POST /api/upload": limited(text(signedIn("createOrEdit", "multipart")), 20),

  "GET /data-dictionary/connection-files": text(signedIn("read", "none")),
  "POST /data-dictionary/validate-cron-string": text(signedIn()),
  "POST /data-dictionary/ping-metadata-source": limited(text(signedIn("read")), 30),
  "POST /data-dictionary/import-metadata-from-source": limited(text(signedIn("edit")), 10),

  "POST /api/publishdatadictionary": limited(signedIn("read", "none"), 10),
  "GET /ws/publish": signedIn("read", "none"),

  "POST /api/getpendingsummary": signedIn(),
  "POST /api/pendingchangesets": signedIn("read"),
  "POST /api/approve": signedIn("approve"),
  "POST /api/reject": signedIn("approve"),
  "POST /api/actions": signedIn("read"),
  "POST /api/runaction": signedIn("approve"),

  "POST /api/getusers": admin(),
  "POST /api/createuser": admin(),
  "POST /api/updateuser": admin(),
  "POST /api/removeuser": admin(),
  "POST /api/getroles": signedIn(),
  "POST /api/getrolesbycontext": admin(),
  "POST /api/getrolesbyusername": admin(),
  "POST /api/addrole": admin(),
  "POST /api/removerole": admin(),

  "POST /api/notifications/settings": signedIn(),
  "POST /api/notifications/updatesetting": signedIn(),
  "POST /api/notifications/users": admin(),
  "POST /api/notifications/outbox": admin(),
  "POST /api/waiting": signedIn(),

  "GET /api/openapi.json": dev(),
  "GET /api/docs*": dev(),
  "HEAD /api/docs*": dev(),

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

const RESERVED_PREFIXES = ["/api", "/auth", "/data-dictionary", "/ws"];

/** Paths that belong to the server, never to the web app. */
export function isReserved(url: string): boolean {
  return RESERVED_PREFIXES.some((p) => url === p || url.startsWith(`${p}/`));
}
