import type { ConnectionOptions } from "node:tls";
import pg from "pg";
import type { Catalog, CatalogObject } from "../catalog.ts";
import type { SourceAdapter } from "../source-adapter.ts";
import { codeOf, sourceError, textOf, transportFailure } from "../source-error.ts";
import { readCatalog } from "./catalog.ts";
import { type ConnectionSettings, loadConnection } from "./connection-file.ts";
import { readPostgresProfiles } from "./profile.ts";

const CONNECT_TIMEOUT_MS = 5_000;
const STATEMENT_TIMEOUT_MS = 60_000;

/** Where the connection goes, for administrators' messages: never the password. */
const whereOf = (settings: ConnectionSettings) => ({
  fileName: settings.fileName,
  where: `host ${settings.host}, port ${settings.port}, database ${settings.database}, user ${settings.user}`,
});

/** Plain words for a failure to connect; nothing in them comes from the settings or the error's text. */
export function connectionFailure(error: unknown): string {
  const code = codeOf(error);
  const text = textOf(error);
  const transport = transportFailure(code);
  if (transport) return transport;
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
  }
  if (/timeout/i.test(text)) return "timeout: no answer in time";
  if (/SSL/.test(text)) return "the SSL settings do not match the database server's";
  if (code.startsWith("28")) return "the database server refused the login";
  return "the connection failed";
}

/** Plain words for a failure after connecting, while reading the source. */
function readFailure(error: unknown): string {
  const code = codeOf(error);
  const text = textOf(error);
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
      whereOf(settings),
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
      whereOf(settings),
      (file) => `Cannot read the source database of ${file}`,
      readFailure(error),
      error,
    );
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** PostgreSQL, read through pg_catalog (DESIGN.md §9). */
export const postgresSource: SourceAdapter = {
  async open(connectionsDir, fileName) {
    const settings = await loadConnection(connectionsDir, fileName);
    return {
      ping: async () => {
        await withSourceDatabase(settings, (client) => client.query("select version()"));
      },
      readCatalog: (objectsRead: (objects: CatalogObject[]) => void): Promise<Catalog> =>
        withSourceDatabase(settings, (client) => readCatalog(client, objectsRead)),
      profileColumns: (catalog, sensitive) =>
        withSourceDatabase(settings, (client) => readPostgresProfiles(client, catalog, sensitive)),
    };
  },
};
