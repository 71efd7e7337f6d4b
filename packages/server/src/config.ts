import { randomBytes } from "node:crypto";
import path from "node:path";
import { parseArgs } from "node:util";
import { NavItem } from "@ledgerline/contract";
import { z } from "zod";
import { DEFAULT_SEARCH_CONNECTIONS } from "./db/connection.ts";
import { checkCron } from "./dictionary/cron.ts";
import { parseTrustedProxies, type TrustedProxies } from "./http/trusted-proxies.ts";

/** The address of a sender written as an address or as "Name <address>". */
export function mailAddressOf(from: string): string {
  return from.match(/^[^<>]*<([^<>]+)>$/)?.[1] ?? from;
}

const flag = z
  .enum(["0", "1", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

/** Rows above which a filtered list's count is estimated (docs/decisions.md, counts on large types). */
const COUNT_ESTIMATE_DEFAULT = 100_000;
/** Rows a list of every row (pageSize 0) may answer: as many as the largest page (docs/decisions.md). */
const LIST_ALL_DEFAULT = 100_000;

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().url().optional(),
  DATABASE_STATEMENT_CACHE: z.coerce.number().int().min(0).max(10_000).default(100),
  DATABASE_SEARCH_CONNECTIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(10)
    .default(DEFAULT_SEARCH_CONNECTIONS),
  MODEL_DIR: z.string().default("./model"),
  CONNECTIONS_DIR: z.string().optional(),
  ADMIN_USERNAME: z.string().min(1).default("admin"),
  ADMIN_PASSWORD: z.string().min(8).max(256).optional(),
  DEMO: flag.optional(),
  WIKI_TARGET: z
    .string()
    .regex(/^(git|mediawiki):.+/, "must start with git: or mediawiki:")
    .optional(),
  WIKI_ROOT: z.string().min(1).default("Data Dictionary"),
  WIKI_USER: z.string().optional(),
  WIKI_PASSWORD: z.string().optional(),
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(30),
  SESSION_MAX_HOURS: z.coerce.number().int().positive().default(12),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: z.enum(["pretty", "json"]).optional(),
  NODE_ENV: z.string().optional(),
  TRUST_PROXY: z
    .string()
    .default("0")
    .transform((text, ctx) => {
      const parsed = parseTrustedProxies(text);
      if ("value" in parsed) return parsed.value;
      ctx.addIssue({ code: "custom", message: parsed.problem });
      return z.NEVER;
    }),
  NAV_HIDE: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .pipe(z.array(NavItem)),
  WEB_DIST: z.string().default(path.resolve(import.meta.dirname, "../../web/dist")),
  UPLOAD_MAX_MB: z.coerce.number().positive().max(2048).default(200),
  UPLOAD_MAX_ROWS: z.coerce.number().int().positive().default(1_000_000),
  UPLOAD_PARSE_TIMEOUT_SECONDS: z.coerce.number().positive().max(86_400).default(300),
  UPLOAD_PARSERS_MAX: z.coerce.number().int().positive().max(64).default(2),
  UPLOAD_PARSERS_WAITING: z.coerce.number().int().min(0).max(1000).default(8),
  PUBLIC_URL: z.string().url().optional(),
  OIDC_ISSUER: z.string().url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_SCOPES: z
    .string()
    .default("openid profile email")
    .refine((v) => v.split(/\s+/).includes("openid"), "must include openid"),
  OIDC_USERNAME_CLAIM: z.string().min(1).default("preferred_username"),
  OIDC_NAME_CLAIM: z.string().min(1).default("name"),
  OIDC_EMAIL_CLAIM: z.string().min(1).default("email"),
  OIDC_GROUPS_CLAIM: z.string().min(1).default("groups"),
  OIDC_BUTTON_LABEL: z.string().min(1).max(60).default("company account"),
  OIDC_ONLY: flag.default(false),
  OIDC_ROLE_MAPPING: z.string().optional(),
  OIDC_ALLOW_INSECURE_HTTP: flag.default(false),
  SMTP_HOST: z.string().optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SMTP_TLS: z.enum(["starttls", "implicit", "none"]).default("starttls"),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  // An address, or a display name with the address in angle brackets: "Ledgerline <ll@example.com>".
  SMTP_FROM: z
    .string()
    .refine(
      (value) => z.string().email().safeParse(mailAddressOf(value)).success,
      "an e-mail address, or a name with the address in angle brackets (Ledgerline <ledgerline@example.com>)",
    )
    .optional(),
  EVENTS_URL: z
    .string()
    .regex(/^nats:\/\/[^\s]+$/, "a nats:// address of a NATS server with JetStream")
    .optional(),
  EVENTS_SUBJECT: z
    .string()
    .regex(/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/, "NATS subject tokens joined by dots")
    .default("ledgerline"),
  EVENTS_STREAM: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "letters, digits, _ and -")
    .default("LEDGERLINE"),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default("ledgerline"),
  METRICS_TOKEN: z.string().min(16, "at least 16 characters").optional(),
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(10),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(50).default(8),
  WEBHOOK_SECRET_OVERLAP_HOURS: z.coerce
    .number()
    .min(0)
    .max(24 * 30)
    .default(24),
  WEBHOOK_ALLOW_PRIVATE: flag.default(false),
  WEBHOOK_POLL_MS: z.coerce.number().int().min(10).default(1000),
  NOTIFY_DIGEST_MINUTES: z.coerce.number().positive().default(15),
  NOTIFY_MAX_ATTEMPTS: z.coerce.number().int().positive().default(8),
  NOTIFY_POLL_MS: z.coerce.number().int().positive().default(2000),
  TOKEN_MAX_DAYS: z.coerce.number().int().positive().default(365),
  TOKEN_RATE_LIMIT: z.coerce.number().int().positive().default(600),
  AUDIT_RETENTION_DAYS: z.coerce.number().int().positive().default(400),
  BACKUP_CRON: z.string().optional(),
  BACKUP_DIR: z.string().optional(),
  BACKUP_KEEP: z.coerce.number().int().positive().default(7),
  COUNT_ESTIMATE_ABOVE: z.coerce.number().int().positive().default(COUNT_ESTIMATE_DEFAULT),
  LIST_ALL_MAX_ROWS: z.coerce.number().int().positive().max(1_000_000).default(LIST_ALL_DEFAULT),
  STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
});

/** Every setting of the server, parsed from the environment in one place. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; undefined means the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
  /** Statements each PostgreSQL connection keeps prepared; 0 for none. */
  statementCache: number;
  /** PostgreSQL: the connections the search box's statements run on (DatabaseOptions). */
  searchConnections: number;
  modelDir: string;
  connectionsDir: string;
  adminUsername: string;
  /** undefined: generate one on first start and print it once. */
  adminPassword: string | undefined;
  demo: boolean;
  wikiTarget: string;
  /** Root page of the dictionary on a MediaWiki target. */
  wikiRoot: string;
  /** MediaWiki bot login (user@botname) and bot password. */
  wikiUser: string | undefined;
  wikiPassword: string | undefined;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  logLevel: string;
  /** pretty: one readable line an entry, for a person at a terminal; json: one JSON object a line. */
  logFormat: "pretty" | "json";
  /** The reverse proxies whose X-Forwarded-* headers are believed; undefined: none. */
  trustProxy: TrustedProxies | undefined;
  navHidden: NavItem[];
  webDist: string;
  allowDestructiveModelChanges: boolean;
  /** The address users reach the server at, for links in e-mails. */
  publicUrl: string;
  /** undefined: no company sign-in (OIDC_ISSUER unset). */
  oidc: OidcConfig | undefined;
  /** undefined: no SMTP server, nothing is e-mailed (the outbox is still written and kept). */
  smtp: SmtpConfig | undefined;
  /** undefined: no event bus (EVENTS_URL unset); the change feed is read over HTTP only. */
  events: EventsConfig | undefined;
  /** Whether spans are sent (OTEL_EXPORTER_OTLP_ENDPOINT set; tracing/start-tracing.ts). */
  tracing: boolean;
  /** undefined: no metrics (neither METRICS_TOKEN nor METRICS_PORT set). */
  metrics: MetricsConfig | undefined;
  webhooks: WebhooksConfig;
  notify: {
    /** Shortest time between two digests of a type's web changes. */
    digestMinutes: number;
    /** Tries before a message is marked failed. */
    maxAttempts: number;
    /** How often the sender looks for due messages. */
    pollMs: number;
  };
  audit: {
    /** Days a security event is kept before the sweep removes it. */
    retentionDays: number;
  };
  /** Scheduled backups of the embedded database. */
  backup: {
    /** When to take one (a cron expression); undefined for none. */
    cron?: string;
    dir: string;
    /** How many of the newest backups in `dir` are kept. */
    keep: number;
  };
  tokens: {
    /** Longest lifetime of a new API token, in days. */
    maxDays: number;
    /** Calls one token may make per minute, per instance. */
    perMinute: number;
  };
  /**
   * A filtered list the database planner expects to hold more rows than this answers that estimate,
   * marked as one, instead of counting them; the explorer offers the exact count on demand.
   */
  countEstimateAbove: number;
  /** Most rows a list of every row (pageSize 0) answers; a longer one is refused (400). */
  listAllMaxRows: number;
  /**
   * PostgreSQL: the longest a statement of the reads a caller's request shapes (lists, counts,
   * exports' chunks, comparisons) may run, in ms; 0 for no limit. PGlite does not honour it.
   */
  statementTimeoutMs: number;
  upload: {
    maxBytes: number;
    maxRows: number;
    /** Most bytes a workbook may decompress to (zip-bomb guard). */
    maxDecompressedBytes: number;
    maxCompressionRatio: number;
    parserMemoryMb: number;
    /** Most busy time of one upload's parser thread (not counting its waits for the server). */
    parserMilliseconds: number;
    /** Parser threads at work at once in this server. */
    parsersMax: number;
    /** Uploads that may wait for a parser thread; more are answered 503. */
    parsersWaiting: number;
  };
}

/** Company sign-in through an OpenID Connect provider. */
export interface OidcConfig {
  issuer: string;
  clientId: string;
  /** undefined: a public client (PKCE only, no client authentication). */
  clientSecret: string | undefined;
  scopes: string;
  /** Always PUBLIC_URL + /auth/oidc/callback, never derived from a request's Host. */
  redirectUri: string;
  postLogoutRedirectUri: string;
  /** Names of the claims read at each sign-in. */
  claims: { username: string; name: string; email: string; groups: string };
  /** The button reads 'Sign in with <label>'. */
  label: string;
  /** Password sign-in only for super administrators (and the form only at /login?local=1). */
  only: boolean;
  /** Absolute path of the group-to-role mapping file; undefined: roles and flags are left alone. */
  roleMappingFile: string | undefined;
  /** Tests and development only: lets openid-client talk to an http:// issuer. */
  allowInsecureHttp: boolean;
}

export interface SmtpConfig {
  host: string;
  port: number;
  /** starttls: upgrade a plain connection (required); implicit: TLS from the start; none: plain text. */
  tls: "starttls" | "implicit" | "none";
  user: string | undefined;
  password: string | undefined;
  from: string;
}

/** Descriptions of the variables, printed by `--help` and mirrored in the README. */
export const CONFIG_HELP: Record<keyof z.infer<typeof EnvSchema>, string> = {
  PORT: "TCP port to listen on (default 3000)",
  HOST: "interface to listen on (default 127.0.0.1)",
  DATA_DIR: "embedded database files, upload temp files, default wiki repository (default ./data)",
  DATABASE_URL: "PostgreSQL connection string; when unset the embedded PGlite database is used",
  DATABASE_STATEMENT_CACHE:
    "statements each PostgreSQL connection keeps prepared once run three times (default 100; 0 for none, e.g. behind a pooler in transaction mode)",
  DATABASE_SEARCH_CONNECTIONS: `PostgreSQL: how many of the search box's statements run at once, on connections of their own (default ${DEFAULT_SEARCH_CONNECTIONS}, 1-10; about the database server's cores)`,
  MODEL_DIR: "folder of the model YAML files, one per context (default ./model)",
  CONNECTIONS_DIR: "connection files of system environments (default $DATA_DIR/connections)",
  ADMIN_USERNAME: "super administrator created on first start (default admin)",
  ADMIN_PASSWORD: "its password; generated and printed once when unset",
  DEMO: "seed demo records and give the first admin every role (default 1 on PGlite, 0 on PostgreSQL)",
  WIKI_TARGET:
    "where Publish writes: git:<folder or URL> (default git:$DATA_DIR/wiki) or mediawiki:<api.php URL>",
  WIKI_ROOT: "root page of the dictionary on a MediaWiki (default Data Dictionary)",
  WIKI_USER: "MediaWiki bot login (User@bot)",
  WIKI_PASSWORD: "MediaWiki bot password",
  SESSION_IDLE_MINUTES: "idle session lifetime in minutes (default 30)",
  SESSION_MAX_HOURS: "absolute session lifetime in hours (default 12)",
  LOG_LEVEL: "fatal, error, warn, info, debug, trace or silent (default info)",
  LOG_FORMAT:
    "pretty (readable lines) or json (one object a line); default pretty on a terminal, json otherwise and when NODE_ENV=production",
  NODE_ENV: "production makes the logs JSON even on a terminal",
  TRUST_PROXY:
    "the reverse proxies in front that set X-Forwarded-*: their number (1 for one; only when the server is reachable through them alone) or a comma-separated list of their addresses and CIDR subnets (default 0: none)",
  NAV_HIDE:
    "comma-separated navigation items to switch off (home, upload, explorer, pending, wikimanager, systemenvironments, developer, admin)",
  WEB_DIST: "folder of the built web app (default packages/web/dist)",
  UPLOAD_MAX_MB:
    "largest accepted upload in MB (default 200: room for 1,000,000 rows of about 30 columns)",
  UPLOAD_MAX_ROWS: "most rows one upload may carry (default 1000000)",
  UPLOAD_PARSE_TIMEOUT_SECONDS:
    "most seconds one upload's parser thread may work (its waits for the database not counted); past it the thread is stopped and the upload refused (default 300)",
  UPLOAD_PARSERS_MAX:
    "uploads whose files are read at once, each by a thread of its own (default 2)",
  UPLOAD_PARSERS_WAITING:
    "uploads that may wait for a free parser thread; more are answered 503 with Retry-After (default 8)",
  PUBLIC_URL: "the address users open, for links in e-mails (default http://HOST:PORT)",
  OIDC_ISSUER:
    "issuer URL of the OpenID Connect provider for company sign-in; unset: company sign-in is off",
  OIDC_CLIENT_ID:
    "client id registered at the provider (required with OIDC_ISSUER); its redirect URI is PUBLIC_URL/auth/oidc/callback",
  OIDC_CLIENT_SECRET: "client secret; unset: a public client (PKCE only)",
  OIDC_SCOPES: "scopes asked for (default openid profile email)",
  OIDC_USERNAME_CLAIM: "claim holding the username (default preferred_username)",
  OIDC_NAME_CLAIM: "claim holding the display name (default name)",
  OIDC_EMAIL_CLAIM: "claim holding the e-mail address (default email)",
  OIDC_GROUPS_CLAIM: "claim holding the user's groups, for OIDC_ROLE_MAPPING (default groups)",
  OIDC_BUTTON_LABEL: "the login button reads 'Sign in with <label>' (default company account)",
  OIDC_ONLY:
    "1: password sign-in only for super administrators, its form only at /login?local=1 (default 0)",
  OIDC_ROLE_MAPPING: "YAML file mapping the provider's groups to roles and flags, checked at start",
  OIDC_ALLOW_INSECURE_HTTP:
    "1 lets the server talk to an http:// issuer; for tests and development only (default 0)",
  SMTP_HOST: "SMTP server for e-mail notifications; unset: nothing is e-mailed",
  SMTP_PORT: "its port (default 587, 465 with SMTP_TLS=implicit, 25 with none)",
  SMTP_TLS: "starttls (default), implicit or none",
  SMTP_USER: "SMTP login, when the server wants one",
  SMTP_PASSWORD: "SMTP password",
  SMTP_FROM: "sender of the e-mails, an address or Name <address> (required with SMTP_HOST)",
  EVENTS_URL:
    "nats://host:port of a NATS server with JetStream: every approved change is published there; unset: no event bus",
  EVENTS_SUBJECT:
    "subject prefix of the published changes: <prefix>.<application>.<type>.<action> (default ledgerline)",
  EVENTS_STREAM:
    "JetStream stream that stores them, made for <prefix>.> when missing (default LEDGERLINE)",
  OTEL_EXPORTER_OTLP_ENDPOINT:
    "OTLP/HTTP address traces are sent to (<this>/v1/traces, JSON); unset: no traces, and the tracing SDK is not loaded",
  OTEL_SERVICE_NAME: "service name the traces carry (default ledgerline)",
  METRICS_TOKEN:
    "serve GET /metrics (Prometheus) on the server's port to 'Authorization: Bearer <this>' (16+ characters); unset: not on that port",
  METRICS_PORT:
    "serve GET /metrics on this port of METRICS_HOST, without a token; unset: no such port",
  METRICS_HOST: "address the metrics port listens on (default 127.0.0.1)",
  WEBHOOK_TIMEOUT_SECONDS:
    "how long a webhook receiver may take to answer before the try counts as failed (default 10)",
  WEBHOOK_MAX_ATTEMPTS:
    "tries of a webhook delivery before it is given up and its subscription paused (default 8)",
  WEBHOOK_SECRET_OVERLAP_HOURS:
    "hours a rotated webhook secret still signs deliveries beside the new one (default 24)",
  WEBHOOK_ALLOW_PRIVATE:
    "true: webhooks may reach private, loopback and link-local addresses (default false: refused)",
  WEBHOOK_POLL_MS: "how often the webhook sender looks for due deliveries, in ms (default 1000)",
  NOTIFY_DIGEST_MINUTES: "shortest time between two digests of a type's web changes (default 15)",
  NOTIFY_MAX_ATTEMPTS: "tries before an e-mail is marked failed (default 8)",
  NOTIFY_POLL_MS: "how often the sender looks for due e-mails, in ms (default 2000)",
  TOKEN_MAX_DAYS: "longest lifetime of a new API token, in days (default 365)",
  TOKEN_RATE_LIMIT: "calls one API token may make per minute, per instance (default 600)",
  AUDIT_RETENTION_DAYS:
    "days the security audit trail keeps an event before removing it (default 400)",
  BACKUP_CRON:
    "when the server backs the embedded database up, a cron expression such as '0 3 * * *' (default: never; not with DATABASE_URL)",
  BACKUP_DIR: "where scheduled backups are written (default $DATA_DIR/backups)",
  BACKUP_KEEP: "how many of the newest scheduled backups are kept (default 7)",
  COUNT_ESTIMATE_ABOVE: `a filtered list expected to hold more rows than this shows the planner's estimate ('about ...') instead of a count (default ${COUNT_ESTIMATE_DEFAULT})`,
  LIST_ALL_MAX_ROWS: `most rows a list of every row ('All', pageSize 0) answers; a longer one is refused, to be paged or exported (default ${LIST_ALL_DEFAULT})`,
  STATEMENT_TIMEOUT_MS:
    "PostgreSQL: the longest a list's, count's, export chunk's or comparison's statement may run, in ms, 0 for no limit; uploads, imports, approvals and index builds are not limited (default 30000)",
};

export class ConfigError extends Error {}

/** The server's command-line flags; any other is refused (ConfigError) rather than ignored. */
function serverFlags(argv: readonly string[]): { help: boolean; allowDestructive: boolean } {
  try {
    const { values } = parseArgs({
      args: [...argv],
      options: {
        help: { type: "boolean", default: false },
        "allow-destructive-model-changes": { type: "boolean", default: false },
      },
    });
    return { help: values.help, allowDestructive: values["allow-destructive-model-changes"] };
  } catch (error) {
    throw new ConfigError(`${(error as Error).message}\nSee --help for the server's options.`);
  }
}

/** Whether the command line asks for the help text (serverHelp) instead of a server. */
export const wantsHelp = (argv: readonly string[] = process.argv.slice(2)): boolean =>
  serverFlags(argv).help;

/** What `--help` prints: the flags, then every variable with its description. */
export function serverHelp(): string {
  const width = Math.max(...Object.keys(CONFIG_HELP).map((name) => name.length));
  return [
    "Ledgerline server. Settings come from the environment (see .env.example); flags:",
    "  --allow-destructive-model-changes  apply model changes that lose data (dropped attributes or types, changed data types)",
    "  --help                             print this text",
    "",
    "Environment variables:",
    ...Object.entries(CONFIG_HELP).map(([name, text]) => `  ${name.padEnd(width)}  ${text}`),
  ].join("\n");
}

/** Parses the environment (and command-line flags) into a Config, or throws a ConfigError naming every bad variable. */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  argv: readonly string[] = process.argv.slice(2),
  terminal: boolean = process.stdout.isTTY === true,
): Config {
  const defined = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = EnvSchema.safeParse(defined);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${lines.join("\n  ")}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, "");
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    statementCache: e.DATABASE_STATEMENT_CACHE,
    searchConnections: e.DATABASE_SEARCH_CONNECTIONS,
    modelDir: path.resolve(e.MODEL_DIR),
    connectionsDir: path.resolve(e.CONNECTIONS_DIR ?? path.join(dataDir, "connections")),
    adminUsername: e.ADMIN_USERNAME,
    adminPassword: e.ADMIN_PASSWORD,
    demo: e.DEMO ?? e.DATABASE_URL === undefined,
    wikiTarget: e.WIKI_TARGET ?? `git:${path.join(dataDir, "wiki")}`,
    wikiRoot: e.WIKI_ROOT,
    wikiUser: e.WIKI_USER,
    wikiPassword: e.WIKI_PASSWORD,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (terminal && e.NODE_ENV !== "production" ? "pretty" : "json"),
    trustProxy: e.TRUST_PROXY,
    navHidden: e.NAV_HIDE,
    webDist: path.resolve(e.WEB_DIST),
    allowDestructiveModelChanges: serverFlags(argv).allowDestructive,
    publicUrl,
    oidc: oidcConfig(e, publicUrl),
    smtp: smtpConfig(e),
    events: e.EVENTS_URL
      ? { url: e.EVENTS_URL, subject: e.EVENTS_SUBJECT, stream: e.EVENTS_STREAM }
      : undefined,
    tracing: e.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined,
    metrics:
      e.METRICS_TOKEN !== undefined || e.METRICS_PORT !== undefined
        ? { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST }
        : undefined,
    webhooks: {
      timeoutMs: e.WEBHOOK_TIMEOUT_SECONDS * 1000,
      maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
      secretOverlapHours: e.WEBHOOK_SECRET_OVERLAP_HOURS,
      allowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
      pollMs: e.WEBHOOK_POLL_MS,
    },
    notify: {
      digestMinutes: e.NOTIFY_DIGEST_MINUTES,
      maxAttempts: e.NOTIFY_MAX_ATTEMPTS,
      pollMs: e.NOTIFY_POLL_MS,
    },
    tokens: { maxDays: e.TOKEN_MAX_DAYS, perMinute: e.TOKEN_RATE_LIMIT },
    audit: { retentionDays: e.AUDIT_RETENTION_DAYS },
    backup: backupConfig(e, dataDir),
    countEstimateAbove: e.COUNT_ESTIMATE_ABOVE,
    listAllMaxRows: e.LIST_ALL_MAX_ROWS,
    statementTimeoutMs: e.STATEMENT_TIMEOUT_MS,
    upload: {
      maxBytes: Math.round(e.UPLOAD_MAX_MB * 1024 * 1024),
      maxRows: e.UPLOAD_MAX_ROWS,
      maxDecompressedBytes: Math.max(
        1024 * 1024 * 1024,
        Math.round(e.UPLOAD_MAX_MB * 1024 * 1024 * 20),
      ),
      maxCompressionRatio: 200,
      parserMemoryMb: 512,
      parserMilliseconds: e.UPLOAD_PARSE_TIMEOUT_SECONDS * 1000,
      parsersMax: e.UPLOAD_PARSERS_MAX,
      parsersWaiting: e.UPLOAD_PARSERS_WAITING,
    },
  };
}

/** Where approved changes are published (bus/). */
export interface MetricsConfig {
  /** Serve /metrics on the server's port to a bearer of this token. */
  token?: string;
  /** Serve /metrics on a port of its own, on `host`. */
  port?: number;
  host: string;
}

export interface WebhooksConfig {
  /** How long a receiver may take to answer. */
  timeoutMs: number;
  /** Tries before a delivery is given up (and its subscription paused). */
  maxAttempts: number;
  /** Hours a rotated secret still signs beside the new one. */
  secretOverlapHours: number;
  /** Whether receivers may be on private, loopback and link-local addresses. */
  allowPrivate: boolean;
  /** How often the sender looks for due deliveries. */
  pollMs: number;
}

export interface EventsConfig {
  url: string;
  subject: string;
  stream: string;
}

function backupConfig(e: z.infer<typeof EnvSchema>, dataDir: string): Config["backup"] {
  const cron = e.BACKUP_CRON?.trim() || undefined;
  if (cron && e.DATABASE_URL)
    throw new ConfigError(
      "Invalid configuration:\n  BACKUP_CRON: backs up the embedded database; with DATABASE_URL, back PostgreSQL up with pg_dump or point-in-time recovery",
    );
  const check = cron ? checkCron(cron) : undefined;
  if (check && !check.valid)
    throw new ConfigError(`Invalid configuration:\n  BACKUP_CRON: ${check.message}`);
  return {
    cron,
    dir: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, "backups")),
    keep: e.BACKUP_KEEP,
  };
}

function smtpConfig(e: z.infer<typeof EnvSchema>): SmtpConfig | undefined {
  if (!e.SMTP_HOST) return undefined;
  if (!e.SMTP_FROM)
    throw new ConfigError("Invalid configuration:\n  SMTP_FROM: required with SMTP_HOST");
  const defaultPort = { starttls: 587, implicit: 465, none: 25 }[e.SMTP_TLS];
  return {
    host: e.SMTP_HOST,
    port: e.SMTP_PORT ?? defaultPort,
    tls: e.SMTP_TLS,
    user: e.SMTP_USER,
    password: e.SMTP_PASSWORD,
    from: e.SMTP_FROM,
  };
}

function oidcConfig(e: z.infer<typeof EnvSchema>, publicUrl: string): OidcConfig | undefined {
  if (!e.OIDC_ISSUER) {
    // Nobody but the super administrators could sign in at all.
    if (e.OIDC_ONLY)
      throw new ConfigError("Invalid configuration:\n  OIDC_ONLY: needs OIDC_ISSUER");
    return undefined;
  }
  if (!e.OIDC_CLIENT_ID)
    throw new ConfigError("Invalid configuration:\n  OIDC_CLIENT_ID: required with OIDC_ISSUER");
  return {
    issuer: e.OIDC_ISSUER,
    clientId: e.OIDC_CLIENT_ID,
    clientSecret: e.OIDC_CLIENT_SECRET,
    scopes: e.OIDC_SCOPES,
    redirectUri: `${publicUrl}/auth/oidc/callback`,
    postLogoutRedirectUri: `${publicUrl}/login`,
    claims: {
      username: e.OIDC_USERNAME_CLAIM,
      name: e.OIDC_NAME_CLAIM,
      email: e.OIDC_EMAIL_CLAIM,
      groups: e.OIDC_GROUPS_CLAIM,
    },
    label: e.OIDC_BUTTON_LABEL,
    only: e.OIDC_ONLY,
    roleMappingFile: e.OIDC_ROLE_MAPPING ? path.resolve(e.OIDC_ROLE_MAPPING) : undefined,
    allowInsecureHttp: e.OIDC_ALLOW_INSECURE_HTTP,
  };
}

/** A fresh random password for the first administrator. */
export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}
