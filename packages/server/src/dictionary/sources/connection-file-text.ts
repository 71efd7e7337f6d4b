import fs from "node:fs/promises";
import path from "node:path";
import { AppError, BadRequestError, NotFoundError } from "../../errors.ts";

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*\.conf$/;

/** The connection file names in the folder (only `<name>.conf`), sorted. */
export async function listConnectionFiles(dir: string): Promise<string[]> {
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  return names.filter((n) => FILE_NAME.test(n)).sort();
}

/** The text of one connection file of the folder, refused unless its name is a bare `<name>.conf`. */
export async function readConnectionFile(dir: string, fileName: string): Promise<string> {
  if (!FILE_NAME.test(fileName))
    throw new BadRequestError(`'${fileName}' is not a connection file name`);
  return fs.readFile(path.join(dir, fileName), "utf8").catch((error: unknown) => {
    if ((error as { code?: string }).code === "ENOENT")
      throw new NotFoundError(`Connection file '${fileName}' does not exist`);
    throw new AppError(500, `The server cannot read the connection file '${fileName}'`, {
      cause: error,
    });
  });
}

/**
 * The `key=value` lines of a file with exactly one `[section]` (libpq's service files and the
 * option files of MariaDB's and MySQL's clients alike), keys outside `knownKeys` refused by name.
 */
export function parseOneSection(
  fileName: string,
  text: string,
  knownKeys: ReadonlySet<string>,
): Map<string, string> {
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
    if (!knownKeys.has(key))
      throw new BadRequestError(`Connection file '${fileName}': unknown key '${key}'`);
    values.set(key, line.slice(eq + 1).trim());
  }
  if (sections !== 1)
    throw new BadRequestError(`Connection file '${fileName}' must hold exactly one [section]`);
  return values;
}

/** A port number from the file, or the technology's default. */
export function portOf(fileName: string, value: string | undefined, fallback: number): number {
  const port = Number(value ?? fallback);
  if (!Number.isInteger(port) || port <= 0 || port > 65535)
    throw new BadRequestError(`Connection file '${fileName}': port is not a port number`);
  return port;
}

/**
 * The PEM certificates of the file that `key` names (a path relative to the folder, or absolute),
 * refused by the connection file's name and the key, never the path, which is the server's.
 */
export async function readCertificates(
  dir: string,
  fileName: string,
  key: string,
  file: string,
): Promise<{ pem: string }> {
  const pem = await fs.readFile(path.resolve(dir, file), "utf8").catch((error: unknown) => {
    throw new AppError(400, `Connection file '${fileName}': its ${key} file cannot be read`, {
      cause: error,
    });
  });
  if (!pem.includes("-----BEGIN CERTIFICATE-----"))
    throw new BadRequestError(
      `Connection file '${fileName}': its ${key} file holds no PEM certificate`,
    );
  return { pem };
}
