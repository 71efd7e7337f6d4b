/**
 * Who may call a route: `public` needs nothing; `signedIn` a session; `admin`, `superadmin`, `dev` the
 * profile flag. Per-type permissions (canread, cancreate, ...) are checked by the services on top.
 */
export type Access = "public" | "signedIn" | "admin" | "superadmin" | "dev";

/** What a JSON route accepts as body; checked before parsing so a wrong type answers 415. */
export type BodyKind = "none" | "json" | "form" | "multipart";

export interface RoutePolicy {
  access: Access;
  body: BodyKind;
  /** Errors answer plain text instead of `{message}` (SPEC.md: upload, cron, ping, import). */
  textErrors?: boolean;
}

const pub = (body: BodyKind = "none"): RoutePolicy => ({ access: "public", body });
const signedIn = (body: BodyKind = "json"): RoutePolicy => ({ access: "signedIn", body });
const admin = (body: BodyKind = "json"): RoutePolicy => ({ access: "admin", body });
const dev = (body: BodyKind = "none"): RoutePolicy => ({ access: "dev", body });

/**
 * Every route of the server, "METHOD /url" as Fastify registers it. A route missing here stops the
 * server at start (see guard.ts), so nothing is ever served without a declared policy.
 * Keys ending in `*` cover a route prefix registered by a plugin.
 */
export const ROUTE_POLICY: Readonly<Record<string, RoutePolicy>> = {
  "GET /healthz": pub(),
  "GET /app-config.json": pub(),
  "POST /auth/login": pub("form"),
  "POST /auth/logout": pub("none"),

  "POST /api/ping": signedIn(),
  "POST /api/context": signedIn(),
  "POST /api/contexts": signedIn(),
  "POST /api/allcontexts": admin(),

  "POST /api/entitytypes": signedIn(),
  "POST /api/entitytype": signedIn(),
  "POST /api/entity": signedIn(),
  "POST /api/save": signedIn(),
  "POST /api/delete": signedIn(),
  "POST /api/history": signedIn(),
  "POST /api/query-xlsx": signedIn(),
  "POST /api/xlsxgen": signedIn(),

  "POST /api/filelayouts": signedIn(),
  "POST /api/upload": { access: "signedIn", body: "multipart", textErrors: true },

  "GET /data-dictionary/connection-files": { access: "signedIn", body: "none", textErrors: true },
  "POST /data-dictionary/validate-cron-string": {
    access: "signedIn",
    body: "json",
    textErrors: true,
  },
  "POST /data-dictionary/ping-metadata-source": {
    access: "signedIn",
    body: "json",
    textErrors: true,
  },
  "POST /data-dictionary/import-metadata-from-source": {
    access: "signedIn",
    body: "json",
    textErrors: true,
  },

  "POST /api/publishdatadictionary": signedIn("none"),
  "GET /ws/publish": signedIn("none"),

  "POST /api/getpendingsummary": signedIn(),
  "POST /api/approve": signedIn(),
  "POST /api/reject": signedIn(),
  "POST /api/actions": signedIn(),
  "POST /api/runaction": signedIn(),

  "POST /api/getusers": admin(),
  "POST /api/createuser": admin(),
  "POST /api/updateuser": admin(),
  "POST /api/removeuser": admin(),
  "POST /api/getroles": signedIn(),
  "POST /api/getrolesbycontext": admin(),
  "POST /api/getrolesbyusername": admin(),
  "POST /api/addrole": admin(),
  "POST /api/removerole": admin(),

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
