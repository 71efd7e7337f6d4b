import fs from "node:fs/promises";
import path from "node:path";
import { AppError, BadRequestError } from "../../../errors.ts";
import {
  parseOneSection,
  portOf,
  readCertificates,
  readConnectionFile,
} from "../connection-file-text.ts";

// The ssl-mode values of MySQL's clients (MariaDB's understand the same file's ssl-ca).
const SSL_MODES = ["DISABLED", "PREFERRED", "REQUIRED", "VERIFY_CA", "VERIFY_IDENTITY"] as const;
export type MariadbSslMode = (typeof SSL_MODES)[number];

/** Settings of one MariaDB or MySQL connection, read from its connection file. Never sent to clients. */
export interface MariadbSettings {
  /** The file's name, the only part of it users see (they choose it in the system environment). */
  fileName: string;
  host: string;
  port: number;
  user: string;
  password?: string;
  /** The databases (MariaDB's and MySQL's schemas) to document; empty: every one the user reads. */
  databases: string[];
  sslMode: MariadbSslMode;
  /** The ssl-ca file's certificates, which verify the server's. */
  ca?: { pem: string };
  connectTimeoutSeconds?: number;
}

// Keys of the clients' option files, and two of ours: `databases` and `password-file`.
const KNOWN_KEYS = new Set([
  "host",
  "port",
  "user",
  "password",
  "password-file",
  "databases",
  "ssl-mode",
  "ssl-ca",
  "connect-timeout",
]);

/** Parses the text of a MariaDB/MySQL connection file: one [group] of option-file lines. */
export function parseOptionFile(
  fileName: string,
  text: string,
): Omit<MariadbSettings, "ca"> & { sslCaFile?: string; passwordFile?: string } {
  const values = parseOneSection(fileName, text, KNOWN_KEYS);
  const host = values.get("host");
  const user = values.get("user");
  if (!host || !user)
    throw new BadRequestError(`Connection file '${fileName}' needs host and user`);
  const sslMode = (values.get("ssl-mode") ?? "PREFERRED").toUpperCase();
  if (!(SSL_MODES as readonly string[]).includes(sslMode))
    throw new BadRequestError(
      `Connection file '${fileName}': ssl-mode is not one of ${SSL_MODES.join(", ")}`,
    );
  const sslCaFile = values.get("ssl-ca");
  if (sslMode === "VERIFY_CA" && sslCaFile === undefined)
    throw new BadRequestError(
      `Connection file '${fileName}': ssl-mode VERIFY_CA needs ssl-ca, the certificate of the authority to verify against`,
    );
  if (values.has("password") && values.has("password-file"))
    throw new BadRequestError(
      `Connection file '${fileName}': password and password-file exclude each other`,
    );
  const timeout = values.get("connect-timeout");
  if (timeout !== undefined && !(Number(timeout) > 0))
    throw new BadRequestError(
      `Connection file '${fileName}': connect-timeout is not a number of seconds`,
    );
  const databases = (values.get("databases") ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter((name) => name !== "");
  return {
    fileName,
    host,
    port: portOf(fileName, values.get("port"), 3306),
    user,
    password: values.get("password"),
    passwordFile: values.get("password-file"),
    databases: [...new Set(databases)],
    sslMode: sslMode as MariadbSslMode,
    sslCaFile,
    connectTimeoutSeconds: timeout === undefined ? undefined : Number(timeout),
  };
}

/** The password of a password-file (relative to the folder, or absolute), readable by the server alone. */
async function passwordFromFile(dir: string, fileName: string, file: string): Promise<string> {
  const full = path.resolve(dir, file);
  const stats = await fs.stat(full).catch(() => undefined);
  // Named by the connection file only: the path is the server's.
  if (!stats?.isFile())
    throw new BadRequestError(`Connection file '${fileName}': its password-file cannot be read`);
  if ((stats.mode & 0o077) !== 0)
    throw new BadRequestError(
      `Connection file '${fileName}': its password-file may be read by others (it needs mode 0600)`,
    );
  const text = await fs.readFile(full, "utf8").catch((error: unknown) => {
    throw new AppError(400, `Connection file '${fileName}': its password-file cannot be read`, {
      cause: error,
    });
  });
  return text.replace(/\r?\n$/, "");
}

/** Reads one MariaDB/MySQL connection file of the folder, with its password and certificates. */
export async function loadMariadbConnection(
  dir: string,
  fileName: string,
): Promise<MariadbSettings> {
  const { sslCaFile, passwordFile, ...settings } = parseOptionFile(
    fileName,
    await readConnectionFile(dir, fileName),
  );
  const verifies = settings.sslMode !== "DISABLED" && settings.sslMode !== "PREFERRED";
  return {
    ...settings,
    password:
      passwordFile === undefined
        ? settings.password
        : await passwordFromFile(dir, fileName, passwordFile),
    ca:
      verifies && sslCaFile !== undefined
        ? await readCertificates(dir, fileName, "ssl-ca", sslCaFile)
        : undefined,
  };
}
