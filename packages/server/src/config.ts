import { randomBytes } from "node:crypto";
import path from "node:path";
import { NavItem } from "@ledgerline/contract";
import { z } from "zod";

const flag = z
  .enum(["0", "1", "true", "false", "yes", "no"])
  .transform((v) => v === "1" || v === "true" || v === "yes");

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("127.0.0.1"),
  DATA_DIR: z.string().default("./data"),
  DATABASE_URL: z.string().url().optional(),
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
  TRUST_PROXY: flag.default(false),
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
  UPLOAD_MAX_MB: z.coerce.number().positive().max(2048).default(50),
  UPLOAD_MAX_ROWS: z.coerce.number().int().positive().default(1_000_000),
});

/** Every setting of the server, parsed from the environment in one place. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; undefined means the embedded PGlite database under dataDir. */
  databaseUrl: string | undefined;
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
  trustProxy: boolean;
  navHidden: NavItem[];
  webDist: string;
  allowDestructiveModelChanges: boolean;
  upload: {
    maxBytes: number;
    maxRows: number;
    /** Most bytes a workbook may decompress to (zip-bomb guard). */
    maxDecompressedBytes: number;
    maxCompressionRatio: number;
    parserMemoryMb: number;
    parserMilliseconds: number;
  };
}

/** Descriptions of the variables, printed by `--help` and mirrored in the README. */
export const CONFIG_HELP: Record<keyof z.infer<typeof EnvSchema>, string> = {
  PORT: "TCP port to listen on (default 3000)",
  HOST: "interface to listen on (default 127.0.0.1)",
  DATA_DIR: "embedded database files, upload temp files, default wiki repository (default ./data)",
  DATABASE_URL: "PostgreSQL connection string; when unset the embedded PGlite database is used",
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
  TRUST_PROXY: "1 when behind a reverse proxy that sets X-Forwarded-* (default 0)",
  NAV_HIDE:
    "comma-separated navigation items to switch off (home, upload, explorer, pending, wikimanager, systemenvironments, developer, admin)",
  WEB_DIST: "folder of the built web app (default packages/web/dist)",
  UPLOAD_MAX_MB: "largest accepted upload in MB (default 50)",
  UPLOAD_MAX_ROWS: "most rows one upload may carry (default 1000000)",
};

export class ConfigError extends Error {}

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
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
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
    allowDestructiveModelChanges: argv.includes("--allow-destructive-model-changes"),
    upload: {
      maxBytes: Math.round(e.UPLOAD_MAX_MB * 1024 * 1024),
      maxRows: e.UPLOAD_MAX_ROWS,
      maxDecompressedBytes: Math.max(
        1024 * 1024 * 1024,
        Math.round(e.UPLOAD_MAX_MB * 1024 * 1024 * 20),
      ),
      maxCompressionRatio: 200,
      parserMemoryMb: 512,
      parserMilliseconds: 10 * 60 * 1000,
    },
  };
}

/** A fresh random password for the first administrator. */
export function generatePassword(): string {
  return randomBytes(12).toString("base64url");
}
