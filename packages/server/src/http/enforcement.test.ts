import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords } from "../testing/records-client.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  credentialHeaders,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";
import type { RoutePolicy, TypePermission } from "./route-policy.ts";

/**
 * The enforcement matrix: every registered route, called by every kind of user, answers exactly
 * what the route policy table says (401 / 403 / success), and a refused call changes nothing.
 */
type RoleName =
  | "anonymous"
  | "norole"
  | "viewer"
  | "steward"
  | "approver"
  | "administrator"
  | "superadmin"
  | "developer";
const ROLES: RoleName[] = [
  "anonymous",
  "norole",
  "viewer",
  "steward",
  "approver",
  "administrator",
  "superadmin",
  "developer",
];
const FLAGS: Partial<
  Record<RoleName, { isadmin?: boolean; issuperadmin?: boolean; isdev?: boolean }>
> = {
  administrator: { isadmin: true },
  superadmin: { isadmin: true, issuperadmin: true },
  developer: { isdev: true },
};
const ROLE_GRANTS: Partial<Record<RoleName, { context: string; role: string }[]>> = {
  viewer: [
    { context: "reference", role: "viewer" },
    { context: "Data Dictionary", role: "dictionary_viewer" },
  ],
  steward: [{ context: "reference", role: "steward" }],
  approver: [{ context: "reference", role: "approver" }],
};
// What the demo roles grant (model/*.yaml), per context.
const RIGHTS: Record<string, Partial<Record<RoleName, TypePermission[]>>> = {
  reference: {
    viewer: ["member", "read"],
    steward: ["member", "read", "create", "edit", "delete", "createOrEdit"],
    approver: ["member", "read", "approve"],
  },
  "Data Dictionary": { viewer: ["member", "read"] },
};

interface Call {
  /** Context of the entity type the call names (for the type permission). */
  context?: string;
  /** Statuses that count as success besides 2xx (calls that cannot fully succeed in a test). */
  alsoAllowed?: number[];
  send(cookie: string | undefined): Promise<LightMyRequestResponse>;
}

let t: TestApp;
let setup: string;
const cookies: Partial<Record<RoleName, string>> = {};
let counter = 0;
const unique = (prefix: string) => `${prefix}${++counter}`;

const json = (url: string, body: object) => (cookie: string | undefined) =>
  t.post(url, body, cookie);
const get =
  (url: string, method: "GET" | "HEAD" = "GET") =>
  (cookie: string | undefined) =>
    t.app.inject({ method, url, headers: credentialHeaders(cookie) });

async function pendingCountryEdit(): Promise<number> {
  const iso = [
    "AD",
    "AL",
    "AM",
    "AZ",
    "BA",
    "BY",
    "GE",
    "IS",
    "LI",
    "MC",
    "MD",
    "ME",
    "MK",
    "NO",
    "RS",
    "SM",
    "UA",
    "VA",
  ][counter++ % 18];
  const res = await t.post(
    "/api/save",
    { context: "reference", entityType: "country", record: { iso2: iso, population: counter } },
    setup,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().entityEventID;
}

async function throwawayUser(): Promise<string> {
  const username = unique("throwaway");
  await t.createUser({ username });
  return username;
}

const webhookFields = () => ({
  context: "reference",
  url: `https://receiver.example.com/${unique("hook")}`,
  entityTypes: [],
  kinds: ["changes.approved"],
});

/** A webhook subscription made by the demo admin; answers its id. */
async function webhook(): Promise<number> {
  const res = await t.post("/api/webhooks/create", webhookFields(), setup);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().subscription.subscriptionId;
}

/** A sample call per route, built fresh for each attempt (setup runs as the demo admin). */
const CALLS: Record<string, () => Promise<Call>> = {
  "POST /api/ping": async () => ({ send: json("/api/ping", {}) }),
  "POST /api/context": async () => ({
    context: "reference",
    send: json("/api/context", { context: "reference" }),
  }),
  "POST /api/contexts": async () => ({ send: json("/api/contexts", {}) }),
  "POST /api/allcontexts": async () => ({ send: json("/api/allcontexts", {}) }),
  "POST /api/entitytypes": async () => ({
    send: json("/api/entitytypes", { context: "reference" }),
  }),
  "POST /api/entitytype": async () => ({
    context: "reference",
    send: json("/api/entitytype", { context: "reference", entityType: "currency" }),
  }),
  "POST /api/entity": async () => ({
    context: "reference",
    send: json("/api/entity", { context: "reference", entityType: "currency", pageSize: 1 }),
  }),
  "POST /api/save": async () => ({
    context: "reference",
    send: json("/api/save", {
      context: "reference",
      entityType: "currency",
      record: { code: "EUR", name: "Euro" },
      action: "update",
    }),
  }),
  "POST /api/delete": async () => {
    // Lower case: no ISO 4217 code is taken, and 676 of them are enough for every caller.
    const n = counter++;
    const code = `d${String.fromCharCode(97 + (Math.floor(n / 26) % 26), 97 + (n % 26))}`;
    const created = await t.post(
      "/api/save",
      {
        context: "reference",
        entityType: "currency",
        record: { code, name: "Doomed" },
        action: "create",
      },
      setup,
    );
    const key = created.json().entityKeyID;
    return {
      context: "reference",
      send: json("/api/delete", {
        context: "reference",
        entityType: "currency",
        entityKeyIds: [key],
      }),
    };
  },
  "POST /api/history": async () => {
    const eur = (
      await listRecords(t, setup, {
        entityType: "currency",
        rowConstraints: [{ attribute: "code", operator: "=", values: ["EUR"] }],
      })
    ).data[0].entityKeyID;
    return {
      context: "reference",
      send: json("/api/history", {
        context: "reference",
        entityType: "currency",
        entityKeyID: eur,
      }),
    };
  },
  "POST /api/query-xlsx": async () => ({
    context: "reference",
    send: json("/api/query-xlsx", {
      context: "reference",
      entityType: "currency",
      requestedAttributes: ["code"],
    }),
  }),
  "POST /api/xlsxgen": async () => ({
    send: json("/api/xlsxgen", { fields: [{ key: "a", header: "A" }], items: [{ a: "x" }] }),
  }),
  "POST /api/compare": async () => ({
    context: "reference",
    send: json("/api/compare", {
      context: "reference",
      entityType: "currency",
      from: "2020-01-01T00:00:00Z",
      to: new Date().toISOString(),
    }),
  }),
  "POST /api/tree-children": async () => ({
    context: "reference",
    send: json("/api/tree-children", {
      context: "reference",
      entityType: "region",
      parentKeyID: null,
    }),
  }),
  "POST /api/tree-path": async () => {
    const world = (
      await listRecords(t, setup, {
        entityType: "region",
        rowConstraints: [{ attribute: "code", operator: "=", values: ["001"] }],
      })
    ).data[0].entityKeyID;
    return {
      context: "reference",
      send: json("/api/tree-path", {
        context: "reference",
        entityType: "region",
        entityKeyID: world,
      }),
    };
  },
  "POST /api/compare-xlsx": async () => ({
    context: "reference",
    send: json("/api/compare-xlsx", {
      context: "reference",
      entityType: "currency",
      from: "2020-01-01T00:00:00Z",
      to: new Date().toISOString(),
    }),
  }),
  "POST /api/approved-uploads": async () => ({
    context: "reference",
    send: json("/api/approved-uploads", { context: "reference", entityType: "currency" }),
  }),
  "POST /api/changes": async () => ({
    context: "reference",
    send: json("/api/changes", { context: "reference", entityTypes: ["currency"], limit: 5 }),
  }),
  "POST /api/search": async () => ({ send: json("/api/search", { query: "euro" }) }),
  "POST /api/filelayouts": async () => ({
    send: json("/api/filelayouts", { context: "reference" }),
  }),
  "POST /api/upload": async () => {
    const file = await workbookOf("Currencies", [
      ["Code", "Name", "Minor units", "Active"],
      ["EUR", "Euro", 2, true],
    ]);
    return {
      context: "reference",
      send: (cookie) =>
        upload(t, cookie ?? "", file, { layout: "currencies", deleteMissing: false, dryRun: true }),
    };
  },
  "POST /api/upload-problems": async () => ({
    alsoAllowed: [404],
    send: json("/api/upload-problems", { uploadId: 999_999 }),
  }),
  "GET /data-dictionary/connection-files": async () => ({
    context: "Data Dictionary",
    send: get("/data-dictionary/connection-files"),
  }),
  "POST /data-dictionary/validate-cron-string": async () => ({
    send: json("/data-dictionary/validate-cron-string", { CronString: "* * * * *" }),
  }),
  "POST /data-dictionary/ping-metadata-source": async () => ({
    context: "Data Dictionary",
    alsoAllowed: [404],
    send: json("/data-dictionary/ping-metadata-source", { EntityKeyID: 999_999 }),
  }),
  "POST /data-dictionary/object-details": async () => ({
    context: "Data Dictionary",
    alsoAllowed: [404],
    send: json("/data-dictionary/object-details", { EntityKeyID: 999_999 }),
  }),
  "POST /data-dictionary/import-metadata-from-source": async () => ({
    context: "Data Dictionary",
    alsoAllowed: [404],
    send: json("/data-dictionary/import-metadata-from-source", { EntityKeyID: 999_999 }),
  }),
  "POST /api/publishdatadictionary": async () => ({
    context: "Data Dictionary",
    send: (cookie) => t.post("/api/publishdatadictionary", undefined, cookie),
  }),
  "POST /api/getpendingsummary": async () => ({
    send: json("/api/getpendingsummary", { context: "reference" }),
  }),
  "POST /api/pendingchangesets": async () => ({
    context: "reference",
    send: json("/api/pendingchangesets", { context: "reference", entityType: "country" }),
  }),
  "POST /api/approve": async () => ({
    context: "reference",
    send: json("/api/approve", {
      context: "reference",
      entityType: "country",
      entityEventIds: [await pendingCountryEdit()],
    }),
  }),
  "POST /api/reject": async () => ({
    context: "reference",
    send: json("/api/reject", {
      context: "reference",
      entityType: "country",
      entityEventIds: [await pendingCountryEdit()],
    }),
  }),
  "POST /api/actions": async () => ({
    context: "reference",
    send: json("/api/actions", { context: "reference", entityType: "country" }),
  }),
  "POST /api/runaction": async () => ({
    context: "reference",
    send: json("/api/runaction", {
      context: "reference",
      entityType: "country",
      name: "approve_as_verified",
      entityEventIds: [await pendingCountryEdit()],
    }),
  }),
  "POST /api/getusers": async () => ({ send: json("/api/getusers", {}) }),
  "POST /api/createuser": async () => ({
    send: json("/api/createuser", {
      username: unique("made"),
      name: "Made",
      email: "m@example.com",
      password: "password-123",
      isadmin: false,
    }),
  }),
  "POST /api/updateuser": async () => {
    const username = await throwawayUser();
    return {
      send: json("/api/updateuser", {
        username,
        name: "Renamed",
        email: "r@example.com",
        password: null,
        isadmin: false,
      }),
    };
  },
  "POST /api/removeuser": async () => ({
    send: json("/api/removeuser", { username: await throwawayUser() }),
  }),
  "POST /api/getroles": async () => ({ send: json("/api/getroles", {}) }),
  "POST /api/getrolesbycontext": async () => ({
    send: json("/api/getrolesbycontext", { context: "reference" }),
  }),
  "POST /api/getrolesbyusername": async () => ({
    send: json("/api/getrolesbyusername", { context: "reference", username: "viewer" }),
  }),
  "POST /api/addrole": async () => ({
    send: json("/api/addrole", {
      context: "reference",
      username: await throwawayUser(),
      role: "viewer",
    }),
  }),
  "POST /api/removerole": async () => {
    const username = await throwawayUser();
    await t.post("/api/addrole", { context: "reference", username, role: "viewer" }, setup);
    return { send: json("/api/removerole", { context: "reference", username, role: "viewer" }) };
  },
  "POST /api/notifications/settings": async () => ({
    send: json("/api/notifications/settings", {}),
  }),
  "POST /api/notifications/updatesetting": async () => ({
    send: json("/api/notifications/updatesetting", { kind: "web_digest", enabled: true }),
  }),
  "POST /api/notifications/users": async () => ({ send: json("/api/notifications/users", {}) }),
  "POST /api/notifications/outbox": async () => ({ send: json("/api/notifications/outbox", {}) }),
  "POST /api/waiting": async () => ({ send: json("/api/waiting", {}) }),
  "POST /api/tokens/list": async () => ({ send: json("/api/tokens/list", {}) }),
  "POST /api/tokens/create": async () => ({
    send: json("/api/tokens/create", { name: unique("token"), scope: "read", expiresInDays: 1 }),
  }),
  "POST /api/tokens/revoke": async () => {
    // A token of the caller's own is made by the call's credential itself, so the sample revokes
    // an unknown id: 404 counts as the route being reached.
    return { alsoAllowed: [404], send: json("/api/tokens/revoke", { tokenId: 999_999 }) };
  },
  "POST /api/tokens/all": async () => ({ send: json("/api/tokens/all", {}) }),
  "POST /api/webhooks/list": async () => ({
    send: json("/api/webhooks/list", { context: "reference" }),
  }),
  "POST /api/webhooks/create": async () => ({
    send: json("/api/webhooks/create", webhookFields()),
  }),
  "POST /api/webhooks/update": async () => ({
    send: json("/api/webhooks/update", { subscriptionId: await webhook(), ...webhookFields() }),
  }),
  "POST /api/webhooks/rotate": async () => ({
    send: json("/api/webhooks/rotate", { subscriptionId: await webhook() }),
  }),
  "POST /api/webhooks/pause": async () => ({
    send: json("/api/webhooks/pause", { subscriptionId: await webhook() }),
  }),
  "POST /api/webhooks/resume": async () => ({
    send: json("/api/webhooks/resume", { subscriptionId: await webhook() }),
  }),
  "POST /api/webhooks/remove": async () => ({
    send: json("/api/webhooks/remove", { subscriptionId: await webhook() }),
  }),
  "POST /api/webhooks/deliveries": async () => ({
    send: json("/api/webhooks/deliveries", { subscriptionId: await webhook() }),
  }),
  "POST /api/webhooks/resend": async () => ({
    // No delivery exists without a running sender: an unknown id's 404 counts as reached.
    alsoAllowed: [404],
    send: json("/api/webhooks/resend", { deliveryId: 999_999 }),
  }),
  "POST /api/audit/list": async () => ({ send: json("/api/audit/list", {}) }),
  // The tests' databases are in memory or on PostgreSQL, neither of which this call backs up.
  "POST /api/backup": async () => ({ alsoAllowed: [400], send: json("/api/backup", {}) }),
  "POST /api/audit/export": async () => ({ send: json("/api/audit/export", {}) }),
  "POST /api/account/profile": async () => ({ send: json("/api/account/profile", {}) }),
  // Every signed-in caller's password is TEST_USER_PASSWORD: setting it again keeps it.
  "POST /api/account/password": async () => ({
    send: json("/api/account/password", {
      currentPassword: TEST_USER_PASSWORD,
      newPassword: TEST_USER_PASSWORD,
    }),
  }),
  "POST /api/account/email": async () => ({
    send: json("/api/account/email", {
      currentPassword: TEST_USER_PASSWORD,
      email: `${unique("account")}@example.com`,
    }),
  }),
  "GET /api/openapi.json": async () => ({ send: get("/api/openapi.json") }),
  "GET /api/docs*": async () => ({ send: get("/api/docs/") }),
  "HEAD /api/docs*": async () => ({ send: get("/api/docs/", "HEAD") }),
  "GET /healthz": async () => ({ send: get("/healthz") }),
  "GET /readyz": async () => ({ send: get("/readyz") }),
  "GET /app-config.json": async () => ({ send: get("/app-config.json") }),
};
// Covered by their own tests: sign-in (auth.routes.test.ts), the WebSocket (publish.test.ts), static files (system.routes.test.ts).
const ELSEWHERE = new Set([
  "POST /auth/login",
  "POST /auth/logout",
  "GET /ws/publish",
  "GET /*",
  "HEAD /*",
]);

/** Callers with an API token: the user whose token it is, and its scope. */
const TOKEN_CALLERS: { role: RoleName; scope: "read" | "write" }[] = [
  { role: "viewer", scope: "read" },
  { role: "steward", scope: "read" },
  { role: "steward", scope: "write" },
  { role: "approver", scope: "write" },
  { role: "administrator", scope: "read" },
  { role: "superadmin", scope: "write" },
  { role: "developer", scope: "read" },
];
const tokens: Record<string, string> = {};

/** With a token: what the route's token scope allows, then what the token's user may do. */
function expectedWithToken(
  policy: RoutePolicy,
  caller: (typeof TOKEN_CALLERS)[number],
  context: string | undefined,
): "allowed" | 401 | 403 {
  // Signing in or out is for people: a token never gets a cookie.
  if (policy.access === "public") return policy.forPeople ? 403 : "allowed";
  if (!policy.token) return 403;
  if (policy.token === "write" && caller.scope === "read") return 403;
  return expected(policy, caller.role, context);
}

function expected(
  policy: RoutePolicy,
  role: RoleName,
  context: string | undefined,
): "allowed" | 401 | 403 {
  if (policy.access === "public") return "allowed";
  if (role === "anonymous") return 401;
  const flags = FLAGS[role] ?? {};
  if (policy.access === "admin" && !flags.isadmin) return 403;
  if (policy.access === "superadmin" && !flags.issuperadmin) return 403;
  if (policy.access === "dev" && !flags.isdev) return 403;
  if (
    policy.typePermission &&
    !(RIGHTS[context ?? ""]?.[role] ?? []).includes(policy.typePermission)
  )
    return 403;
  return "allowed";
}

/** Everything a refused call must leave as it was. */
async function fingerprint(): Promise<string> {
  const { rows } = await sql<Record<string, number>>`select
    (select count(*) from app.events)::int as events,
    (select count(*) from app.events where status = 'pending')::int as pending,
    (select count(*) from app.users where not is_deleted)::int as users,
    (select count(*) from app.user_roles)::int as roles,
    (select count(*) from app.uploads)::int as uploads,
    (select count(*) from app.publish_runs)::int as publishes,
    (select count(*) from app.import_runs)::int as imports,
    (select count(*) from app.api_tokens where revoked_at is null)::int as tokens,
    (select count(*) from app.notification_settings)::int as notification_settings,
    (select coalesce(sum(version), 0) from ctx_reference.currency)::int as currency_versions,
    (select coalesce(sum(version), 0) from ctx_reference.country)::int as country_versions`.execute(
    t.database.db,
  );
  return JSON.stringify(rows[0]);
}

beforeAll(async () => {
  t = await createTestApp();
  setup = await t.login("admin", ADMIN_PASSWORD);
  for (const role of ROLES.filter((r) => r !== "anonymous")) {
    await t.createUser({ username: role, ...FLAGS[role], roles: ROLE_GRANTS[role] ?? [] });
    cookies[role] = await t.login(role, TEST_USER_PASSWORD);
  }
  for (const { role, scope } of TOKEN_CALLERS) {
    const res = await t.post(
      "/api/tokens/create",
      { name: `${role} ${scope}`, scope, expiresInDays: 1 },
      cookies[role],
    );
    expect(res.statusCode, res.body).toBe(200);
    tokens[`${role}:${scope}`] = `Bearer ${res.json().secret}`;
  }
});
afterAll(() => t.close());

describe("enforcement matrix", () => {
  it("has a sample call for every registered route", () => {
    // HEAD routes are Fastify's twins of GET routes; the docs plugin registers many under one prefix.
    const routes = new Set(
      t.app.registeredRoutes
        .filter((r) => r.method !== "HEAD")
        .map((r) => `${r.method} ${r.url.startsWith("/api/docs") ? "/api/docs*" : r.url}`),
    );
    const missing = [...routes].filter((r) => !(r in CALLS) && !ELSEWHERE.has(r));
    expect(missing).toEqual([]);
  });

  it.each(ROLES)(
    "answers exactly what the policy says to %s, and refused calls change nothing",
    async (role) => {
      await checkEveryRoute(cookies[role], (policy, context) => expected(policy, role, context));
    },
  );

  it.each(TOKEN_CALLERS)(
    "answers a $scope token of $role only what its scope and its user allow, and sets no cookie",
    async (caller) => {
      await checkEveryRoute(tokens[`${caller.role}:${caller.scope}`], (policy, context) =>
        expectedWithToken(policy, caller, context),
      );
    },
  );
});

/** Calls every route with the credential; each answer must be the expected one. */
async function checkEveryRoute(
  credential: string | undefined,
  expectation: (policy: RoutePolicy, context: string | undefined) => "allowed" | 401 | 403,
): Promise<void> {
  const outcomes: string[] = [];
  const wrong: string[] = [];
  for (const [key, build] of Object.entries(CALLS)) {
    const [method, url] = key.split(" ");
    const policy = t.app.registeredRoutes.find(
      (r) =>
        r.method === method &&
        (r.url === url || (url.endsWith("*") && r.url.startsWith(url.slice(0, -1)))),
    )?.policy;
    if (!policy) throw new Error(`no registered route for ${key}`);
    const call = await build();
    const want = expectation(policy, call.context);
    const before = await fingerprint();
    const res = await call.send(credential);
    const ok = res.statusCode < 300 || (call.alsoAllowed ?? []).includes(res.statusCode);
    const got = ok ? "allowed" : res.statusCode;
    outcomes.push(`${key}: ${got}`);
    if (got !== want)
      wrong.push(`${key}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
    if (want !== "allowed" && (await fingerprint()) !== before)
      wrong.push(`${key}: a refused call changed data`);
    if (credential?.startsWith("Bearer ") && res.headers["set-cookie"] !== undefined)
      wrong.push(`${key}: a token call set a cookie`);
  }
  expect(wrong).toEqual([]);
  expect(outcomes.length).toBe(Object.keys(CALLS).length);
}
