import pg from "pg";
import type { ConnectionSettings } from "./connection-files.ts";

const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 60_000;

/**
 * A failure to reach or read a source database, worded for users: the cause in plain words and
 * the connection file they chose, never the host, port, user, database, a path or the server's
 * own text. The original error is the cause, for the server log.
 */
export class SourceConnectionError extends Error {}

const sqlStateOf = (error: unknown): string =>
  String((error as { code?: unknown } | null)?.code ?? "");

/** Plain words for a failure to connect; nothing in them comes from the settings or the error's text. */
export function connectionFailure(error: unknown): string {
  const code = sqlStateOf(error);
  const text = String((error as { message?: unknown } | null)?.message ?? "");
  switch (code) {
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

/** Opens a read-only session on a source database with connect and statement timeouts. */
export async function connectReadOnly(settings: ConnectionSettings): Promise<pg.Client> {
  const client = new pg.Client({
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.user,
    password: settings.password,
    ssl:
      settings.sslmode && !["disable", "allow", "prefer"].includes(settings.sslmode)
        ? { rejectUnauthorized: settings.sslmode === "verify-full" }
        : undefined,
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
    throw new SourceConnectionError(
      `Cannot connect with connection file '${settings.fileName}': ${connectionFailure(error)}`,
      { cause: error },
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
    throw new SourceConnectionError(
      `Cannot read the source database of connection file '${settings.fileName}': ${readFailure(error)}`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}
