import mysql, { type Connection, type RowDataPacket, type SslOptions } from "mysql2/promise";
import type { SourceAdapter } from "../source-adapter.ts";
import { codeOf, sourceError, textOf, transportFailure } from "../source-error.ts";
import { type Flavour, readMariadbCatalog } from "./catalog.ts";
import { loadMariadbConnection, type MariadbSettings } from "./connection-file.ts";
import { readMariadbProfiles } from "./profile.ts";

const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_S = 60;

/** Where the connection goes, for administrators' messages: never the password. */
const whereOf = (settings: MariadbSettings) => ({
  fileName: settings.fileName,
  where: `host ${settings.host}, port ${settings.port}, user ${settings.user}`,
});

/**
 * mysql2's TLS options for the client's ssl-mode. REQUIRED encrypts without verifying, unless
 * ssl-ca is given, when the chain is verified as for VERIFY_CA; VERIFY_CA verifies the chain
 * against ssl-ca but not the host name; VERIFY_IDENTITY both, against ssl-ca or, without one, the
 * system's authorities. DISABLED and PREFERRED connect without TLS (mysql2 cannot fall back from
 * one to the other as the clients do).
 */
export function mariadbSslOptions(
  settings: Pick<MariadbSettings, "sslMode" | "ca">,
): SslOptions | undefined {
  const ca = settings.ca ? { ca: settings.ca.pem } : {};
  switch (settings.sslMode) {
    case "DISABLED":
    case "PREFERRED":
      return undefined;
    case "REQUIRED":
      if (!settings.ca) return { rejectUnauthorized: false, verifyIdentity: false };
      return { ...ca, rejectUnauthorized: true, verifyIdentity: false };
    case "VERIFY_CA":
      return { ...ca, rejectUnauthorized: true, verifyIdentity: false };
    case "VERIFY_IDENTITY":
      return { ...ca, rejectUnauthorized: true, verifyIdentity: true };
  }
}

/** mysql2 reports a failed TLS handshake under its own code, the certificate's fault in its text. */
function handshakeFailure(text: string): string {
  if (/altname|does not match|hostname/i.test(text))
    return "the database server's certificate is for another host name";
  if (/expired|not yet valid/i.test(text))
    return "the database server's certificate is out of its validity dates";
  if (/self[- ]signed|unable to (verify|get)|signature|untrusted/i.test(text))
    return "the database server's certificate is not signed by the trusted authority";
  return "the TLS handshake with the database server failed";
}

/** Plain words for a failure to connect; nothing in them comes from the settings or the error's text. */
export function mariadbConnectionFailure(error: unknown): string {
  const code = codeOf(error);
  const text = textOf(error);
  const transport = transportFailure(code);
  if (transport) return transport;
  switch (code) {
    case "ER_ACCESS_DENIED_ERROR":
    case "ER_ACCESS_DENIED_NO_PASSWORD_ERROR":
      return "wrong user name or password";
    case "ER_HOST_NOT_PRIVILEGED":
    case "ER_HOST_IS_BLOCKED":
      return "the database server does not let this host connect";
    case "ER_CON_COUNT_ERROR":
    case "ER_TOO_MANY_USER_CONNECTIONS":
      return "the database server has too many connections";
    case "HANDSHAKE_NO_SSL_SUPPORT":
      return "the database server does not offer TLS, which the connection file requires";
    case "HANDSHAKE_SSL_ERROR":
      return handshakeFailure(text);
    case "PROTOCOL_CONNECTION_LOST":
      return "the database server closed the connection";
  }
  if (/timeout|timed out/i.test(text)) return "timeout: no answer in time";
  if (code.startsWith("ER_") && /denied/i.test(text))
    return "the database server refused the login";
  return "the connection failed";
}

/** Plain words for a failure after connecting, while reading the source. */
function readFailure(error: unknown): string {
  const code = codeOf(error);
  const text = textOf(error);
  if (code === "ER_STATEMENT_TIMEOUT" || code === "ER_QUERY_TIMEOUT")
    return "timeout: the source database did not answer in time";
  if (/denied/i.test(text)) return "the connection's user may not read the catalog";
  if (code === "PROTOCOL_CONNECTION_LOST" || /ECONNRESET|closed state/i.test(text))
    return "the connection to the source database was lost";
  return "its catalog could not be read";
}

/** A read-only session on the server, with connect and statement timeouts, and which server it is. */
async function connectReadOnly(
  settings: MariadbSettings,
): Promise<{ connection: Connection; flavour: Flavour }> {
  let connection: Connection | undefined;
  try {
    connection = await mysql.createConnection({
      host: settings.host,
      port: settings.port,
      user: settings.user,
      password: settings.password,
      ssl: mariadbSslOptions(settings),
      connectTimeout: (settings.connectTimeoutSeconds ?? CONNECT_TIMEOUT_MS / 1000) * 1000,
      charset: "utf8mb4",
      // Sampled values are profiled as the server writes them, dates included.
      dateStrings: true,
      multipleStatements: false,
    });
    // An idle connection whose server goes away emits 'error'; unheard, it would end the process.
    connection.on("error", () => undefined);
    const [[row]] = await connection.query<RowDataPacket[]>("select version() as version");
    const flavour: Flavour = /mariadb/i.test(String(row?.version)) ? "mariadb" : "mysql";
    // MariaDB bounds any statement in seconds, MySQL a SELECT in milliseconds.
    await connection.query(
      flavour === "mariadb"
        ? `set session max_statement_time = ${STATEMENT_TIMEOUT_S}`
        : `set session max_execution_time = ${STATEMENT_TIMEOUT_S * 1000}`,
    );
    await connection.query("set session transaction read only");
    return { connection, flavour };
  } catch (error) {
    connection?.destroy();
    throw sourceError(
      whereOf(settings),
      (file) => `Cannot connect with ${file}`,
      mariadbConnectionFailure(error),
      error,
    );
  }
}

/**
 * The listed databases the user cannot see: information_schema shows only what the user has rights
 * on, so a database left out of it would otherwise be imported as empty, its objects Missing.
 */
async function unreadableDatabases(
  connection: Connection,
  databases: readonly string[],
): Promise<string[]> {
  if (databases.length === 0) return [];
  const [rows] = await connection.query<RowDataPacket[]>(
    "select schema_name as name from information_schema.schemata where schema_name in (?)",
    [databases],
  );
  const seen = new Set(rows.map((r) => String(r.name)));
  return databases.filter((name) => !seen.has(name));
}

/** A database the user may not read, worded for everyone and named for administrators. */
class UnreadableDatabases extends Error {}

/** Runs `work` on a read-only session of the source server and closes it; failures in plain words. */
async function withMariadb<T>(
  settings: MariadbSettings,
  work: (connection: Connection, flavour: Flavour) => Promise<T>,
): Promise<T> {
  const { connection, flavour } = await connectReadOnly(settings);
  try {
    const unreadable = await unreadableDatabases(connection, settings.databases);
    if (unreadable.length > 0) throw new UnreadableDatabases(unreadable.join(", "));
    return await work(connection, flavour);
  } catch (error) {
    throw sourceError(
      whereOf(settings),
      (file) => `Cannot read the source database of ${file}`,
      error instanceof UnreadableDatabases
        ? {
            words: "the user may not read every database the connection file lists",
            detail: `no rights on ${error.message}`,
          }
        : readFailure(error),
      error,
    );
  } finally {
    await connection.end().catch(() => connection.destroy());
  }
}

/** MariaDB and MySQL, read through information_schema. */
export const mariadbSource: SourceAdapter = {
  async open(connectionsDir, fileName) {
    const settings = await loadMariadbConnection(connectionsDir, fileName);
    return {
      ping: () => withMariadb(settings, async () => undefined),
      readCatalog: (objectsRead) =>
        withMariadb(settings, (connection, flavour) =>
          readMariadbCatalog(connection, { databases: settings.databases, flavour }, objectsRead),
        ),
      profileColumns: (catalog, sensitive) =>
        withMariadb(settings, (connection) => readMariadbProfiles(connection, catalog, sensitive)),
    };
  },
};
