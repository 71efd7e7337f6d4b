import pg from "pg";
import type { ConnectionSettings } from "./connection-files.ts";

const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 60_000;

/** A failure to reach a source database, worded for users and free of credentials. */
export class SourceConnectionError extends Error {}

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
  try {
    await client.connect();
  } catch (error) {
    await client.end().catch(() => undefined);
    throw new SourceConnectionError(describeFailure(error, settings));
  }
  return client;
}

/** Plain words for a connection failure; the password never appears. */
export function describeFailure(error: unknown, settings: ConnectionSettings): string {
  const e = error as { code?: string; message?: string };
  const where = `${settings.host}:${settings.port}`;
  let text: string;
  switch (e.code) {
    case "28P01":
      text = `wrong password for user '${settings.user}'`;
      break;
    case "28000":
      text = `user '${settings.user}' may not connect to database '${settings.database}'`;
      break;
    case "3D000":
      text = `database '${settings.database}' does not exist on ${where}`;
      break;
    case "ECONNREFUSED":
      text = `${where} refused the connection`;
      break;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      text = `unknown host '${settings.host}'`;
      break;
    case "ETIMEDOUT":
      text = `no answer from ${where} in time`;
      break;
    default:
      text = /timeout/i.test(e.message ?? "")
        ? `no answer from ${where} in time`
        : (e.message ?? "connection failed");
  }
  const message = `Cannot connect to ${settings.database} on ${where}: ${text}`;
  return settings.password ? message.split(settings.password).join("***") : message;
}
