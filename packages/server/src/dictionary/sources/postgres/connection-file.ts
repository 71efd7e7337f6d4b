import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
// @ts-expect-error pgpass ships no types; its helper reads one explicit .pgpass file.
import pgpassHelper from "pgpass/lib/helper.js";
import { BadRequestError } from "../../../errors.ts";
import {
  parseOneSection,
  portOf,
  readCertificates,
  readConnectionFile,
} from "../connection-file-text.ts";

const SSL_MODES = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"] as const;
export type SslMode = (typeof SSL_MODES)[number];

/** Settings of one PostgreSQL connection, read from a libpq service file. Never sent to clients. */
export interface ConnectionSettings {
  /** The file's name, the only part of it users see (they choose it in the system environment). */
  fileName: string;
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
  sslmode?: SslMode;
  /** sslrootcert: the file as written (a path, or libpq's `system`); read by loadConnection. */
  sslrootcert?: string;
  /** What verifies the server's certificate: the sslrootcert file's certificates, or the system's. */
  sslRootCert?: "system" | { pem: string };
  connectTimeoutSeconds?: number;
  applicationName?: string;
}

// libpq keys a connection file may set; anything else is refused by name.
const KNOWN_KEYS = new Set([
  "host",
  "hostaddr",
  "port",
  "dbname",
  "user",
  "password",
  "sslmode",
  "sslrootcert",
  "connect_timeout",
  "application_name",
]);

/** Parses the text of a pg_service.conf-style file with exactly one [section]. */
export function parseServiceFile(fileName: string, text: string): ConnectionSettings {
  const values = parseOneSection(fileName, text, KNOWN_KEYS);
  const host = values.get("host") ?? values.get("hostaddr");
  const database = values.get("dbname");
  const user = values.get("user");
  if (!host || !database || !user)
    throw new BadRequestError(`Connection file '${fileName}' needs host, dbname and user`);
  const port = portOf(fileName, values.get("port"), 5432);
  const timeout = values.get("connect_timeout");
  const sslmode = values.get("sslmode");
  if (sslmode !== undefined && !(SSL_MODES as readonly string[]).includes(sslmode))
    throw new BadRequestError(
      `Connection file '${fileName}': sslmode is not one of ${SSL_MODES.join(", ")}`,
    );
  const sslrootcert = values.get("sslrootcert");
  // As libpq: verify-ca has nothing to verify against without a root certificate, and the system's
  // authorities, which sign certificates for anyone's host names, are only worth it with the name.
  if (sslmode === "verify-ca" && sslrootcert === undefined)
    throw new BadRequestError(
      `Connection file '${fileName}': sslmode verify-ca needs sslrootcert, the certificate of the authority to verify against`,
    );
  if (sslrootcert === "system" && sslmode !== "verify-full")
    throw new BadRequestError(
      `Connection file '${fileName}': sslrootcert=system needs sslmode verify-full`,
    );
  return {
    fileName,
    host,
    port,
    database,
    user,
    password: values.get("password"),
    sslmode: sslmode as SslMode | undefined,
    sslrootcert,
    connectTimeoutSeconds: timeout ? Number(timeout) : undefined,
    applicationName: values.get("application_name"),
  };
}

/** Looks the password up in the folder's `.pgpass` (mode 0600 or stricter), as libpq would. */
async function passwordFromPgpass(
  dir: string,
  settings: ConnectionSettings,
): Promise<string | undefined> {
  const file = path.join(dir, ".pgpass");
  const stats = await fs.stat(file).catch(() => undefined);
  if (!stats?.isFile() || (stats.mode & 0o077) !== 0) return undefined;
  const connInfo = {
    host: settings.host,
    port: settings.port,
    database: settings.database,
    user: settings.user,
  };
  return new Promise((resolve) =>
    pgpassHelper.getPassword(connInfo, createReadStream(file), (pw: string | undefined) =>
      resolve(pw),
    ),
  );
}

/** Reads one connection file of the folder, with its password from the file or the folder's .pgpass. */
export async function loadConnection(dir: string, fileName: string): Promise<ConnectionSettings> {
  const text = await readConnectionFile(dir, fileName);
  const parsed = parseServiceFile(fileName, text);
  const settings = { ...parsed, sslRootCert: await rootCertificates(dir, parsed) };
  return settings.password !== undefined
    ? settings
    : { ...settings, password: await passwordFromPgpass(dir, settings) };
}

/** The sslrootcert file's text (a path relative to the folder, or absolute), or `system`. */
async function rootCertificates(
  dir: string,
  settings: ConnectionSettings,
): Promise<ConnectionSettings["sslRootCert"]> {
  const file = settings.sslrootcert;
  if (file === undefined || settings.sslmode === undefined) return undefined;
  if (["disable", "allow", "prefer"].includes(settings.sslmode)) return undefined;
  if (file === "system") return "system";
  return readCertificates(dir, settings.fileName, "sslrootcert", file);
}
