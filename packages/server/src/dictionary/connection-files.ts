import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
// @ts-expect-error pgpass ships no types; its helper reads one explicit .pgpass file.
import pgpassHelper from "pgpass/lib/helper.js";
import { AppError, BadRequestError, NotFoundError } from "../errors.ts";

/** Settings of one PostgreSQL connection, read from a libpq service file. Never sent to clients. */
export interface ConnectionSettings {
  /** The file's name, the only part of it users see (they choose it in the system environment). */
  fileName: string;
  host: string;
  port: number;
  database: string;
  user: string;
  password?: string;
  sslmode?: string;
  connectTimeoutSeconds?: number;
  applicationName?: string;
}

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*\.conf$/;
// libpq keys a connection file may set; anything else is refused by name.
const KNOWN_KEYS = new Set([
  "host",
  "hostaddr",
  "port",
  "dbname",
  "user",
  "password",
  "sslmode",
  "connect_timeout",
  "application_name",
]);

/** The connection file names in the folder (only `<name>.conf`), sorted. */
export async function listConnectionFiles(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => FILE_NAME.test(n)).sort();
}

/** Parses the text of a pg_service.conf-style file with exactly one [section]. */
export function parseServiceFile(fileName: string, text: string): ConnectionSettings {
  const values = new Map<string, string>();
  let sections = 0;
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    if (/^\[[^\]]+\]$/.test(line)) {
      sections += 1;
      continue;
    }
    const eq = line.indexOf("=");
    // By its number only: the line may hold a host or a password.
    if (eq <= 0 || sections === 0)
      throw new BadRequestError(
        `Connection file '${fileName}': line ${index + 1} is not 'key=value' inside a [section]`,
      );
    const key = line.slice(0, eq).trim();
    if (!KNOWN_KEYS.has(key))
      throw new BadRequestError(`Connection file '${fileName}': unknown key '${key}'`);
    values.set(key, line.slice(eq + 1).trim());
  }
  if (sections !== 1)
    throw new BadRequestError(`Connection file '${fileName}' must hold exactly one [section]`);
  const host = values.get("host") ?? values.get("hostaddr");
  const database = values.get("dbname");
  const user = values.get("user");
  if (!host || !database || !user)
    throw new BadRequestError(`Connection file '${fileName}' needs host, dbname and user`);
  const port = Number(values.get("port") ?? 5432);
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new BadRequestError(`Connection file '${fileName}': port is not a port number`);
  const timeout = values.get("connect_timeout");
  return {
    fileName,
    host,
    port,
    database,
    user,
    password: values.get("password"),
    sslmode: values.get("sslmode"),
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
  if (!FILE_NAME.test(fileName))
    throw new BadRequestError(`'${fileName}' is not a connection file name`);
  const text = await fs.readFile(path.join(dir, fileName), "utf8").catch((error: unknown) => {
    if ((error as { code?: string }).code === "ENOENT")
      throw new NotFoundError(`Connection file '${fileName}' does not exist`);
    throw new AppError(500, `The server cannot read the connection file '${fileName}'`, {
      cause: error,
    });
  });
  const settings = parseServiceFile(fileName, text);
  return settings.password !== undefined
    ? settings
    : { ...settings, password: await passwordFromPgpass(dir, settings) };
}
