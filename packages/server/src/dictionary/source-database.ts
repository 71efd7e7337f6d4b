import type { ConnectionOptions } from "node:tls";
import pg from "pg";
import type { ConnectionSettings } from "./connection-files.ts";

const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 60_000;

/**
 * A failure to reach or read a source database, worded for users: the cause in plain words and
 * the connection file they chose, never the host, port, user, database, a path or the server's
 * own text. `forAdministrators` adds where the connection went (host, port, database and user,
 * never the password), which those who set the server up need to correct it. The original error
 * is the cause, for the server log.
 */
export class SourceConnectionError extends Error {
  constructor(
    message: string,
    readonly forAdministrators: string,
    options: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** A failure with the file's name for everyone, and where it points for administrators. */
function sourceError(
  settings: ConnectionSettings,
  what: (file: string) => string,
  reason: string,
  cause: unknown,
): SourceConnectionError {
  const file = `connection file '${settings.fileName}'`;
  const where = `host ${settings.host}, port ${settings.port}, database ${settings.database}, user ${settings.user}`;
  return new SourceConnectionError(
    `${what(file)}: ${reason}`,
    `${what(`${file} (${where})`)}: ${reason}`,
    { cause },
  );
}

const sqlStateOf = (error: unknown): string =>
  String((error as { code?: unknown } | null)?.code ?? "");

// Node's codes for a certificate its trusted authorities did not sign.
const UNTRUSTED_CERTIFICATE = new Set([
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "UNABLE_TO_GET_ISSUER_CERT",
  "UNABLE_TO_GET_ISSUER_CERT_LOCALLY",
  "CERT_UNTRUSTED",
  "CERT_SIGNATURE_FAILURE",
  "CERT_REJECTED",
]);

/** Plain words for a failure to connect; nothing in them comes from the settings or the error's text. */
export function connectionFailure(error: unknown): string {
  const code = sqlStateOf(error);
  const text = String((error as { message?: unknown } | null)?.message ?? "");
  if (UNTRUSTED_CERTIFICATE.has(code))
    return "the database server's certificate is not signed by the trusted authority";
  switch (code) {
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return "the database server's certificate is for another host name";
    case "CERT_HAS_EXPIRED":
    case "CERT_NOT_YET_VALID":
      return "the database server's certificate is out of its validity dates";
    case "28P01":
      return "wrong password";
    case "28000":
      return "the database server does not let this user connect";
    case "3D000":
      return "unknown database";
    case "53300":
      return "the database server has too many connections";
    case "57P03":
      return "the database server is starting up or shutting down";
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "unknown host";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "the host cannot be reached";
    case "ECONNRESET":
      return "the database server closed the connection";
    case "ETIMEDOUT":
      return "timeout: no answer in time";
  }
  if (/timeout/i.test(text)) return "timeout: no answer in time";
  if (/SSL/.test(text)) return "the SSL settings do not match the database server's";
  if (code.startsWith("28")) return "the database server refused the login";
  return "the connection failed";
}

/** Plain words for a failure after connecting, while reading the source. */
function readFailure(error: unknown): string {
  const code = sqlStateOf(error);
  const text = String((error as { message?: unknown } | null)?.message ?? "");
  if (code === "57014") return "timeout: the source database did not answer in time";
  if (code === "42501") return "the connection's user may not read the catalog";
  if (code.startsWith("08") || code.startsWith("57P") || /terminated|ECONNRESET/i.test(text))
    return "the connection to the source database was lost";
  return "its catalog could not be read";
}

/**
 * node-postgres's TLS options for libpq's sslmode. `require` encrypts without verifying, unless a
 * root certificate is given, when libpq verifies the chain as for verify-ca; `verify-ca` verifies
 * the chain against sslrootcert but not the host name; `verify-full` verifies both, against
 * sslrootcert or, without one, the system's authorities. disable, allow and prefer connect without
 * TLS (node-postgres cannot fall back from one to the other as libpq does).
 */
export function sslOptionsOf(
  settings: Pick<ConnectionSettings, "sslmode" | "sslRootCert">,
): ConnectionOptions | undefined {
  const roots = settings.sslRootCert;
  const ca = roots === undefined || roots === "system" ? {} : { ca: roots.pem };
  switch (settings.sslmode) {
    case undefined:
    case "disable":
    case "allow":
    case "prefer":
      return undefined;
    case "require":
      if (roots === undefined) return { rejectUnauthorized: false };
      return { ...ca, rejectUnauthorized: true, checkServerIdentity: () => undefined };
    case "verify-ca":
      return { ...ca, rejectUnauthorized: true, checkServerIdentity: () => undefined };
    case "verify-full":
      return { ...ca, rejectUnauthorized: true };
  }
}

/** Opens a read-only session on a source database with connect and statement timeouts. */
export async function connectReadOnly(settings: ConnectionSettings): Promise<pg.Client> {
  const client = new pg.Client({
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.user,
    password: settings.password,
    ssl: sslOptionsOf(settings),
    connectionTimeoutMillis: (settings.connectTimeoutSeconds ?? CONNECT_TIMEOUT_MS / 1000) * 1000,
    application_name: settings.applicationName ?? "ledgerline-dictionary",
    options: `-c default_transaction_read_only=on -c statement_timeout=${STATEMENT_TIMEOUT_MS}`,
  });
  // An idle client whose server goes away emits 'error'; unheard, it would end the process.
  client.on("error", () => undefined);
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw sourceError(
      settings,
      (file) => `Cannot connect with ${file}`,
      connectionFailure(error),
      error,
    );
  }
  return client;
}

/** Runs `work` on a read-only session of the source database and closes it; failures in plain words. */
export async function withSourceDatabase<T>(
  settings: ConnectionSettings,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = await connectReadOnly(settings);
  try {
    return await work(client);
  } catch (error) {
    throw sourceError(
      settings,
      (file) => `Cannot read the source database of ${file}`,
      readFailure(error),
      error,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
