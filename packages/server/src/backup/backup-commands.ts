import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { CLI_ORIGIN } from "../audit/audit.service.ts";
import type { Config } from "../config.ts";
import { openDatabase } from "../db/connection.ts";
import { FolderInUseError, lockDataFolder } from "../db/pglite-folder-lock.ts";
import { claimBackup, ON_POSTGRES } from "./backup.service.ts";
import { ExportError, exportToPostgres } from "./export-to-postgres.ts";
import { RestoreError, restoreBackup } from "./restore-archive.ts";

/** A command that cannot be carried out; the message says why. */
export class CommandError extends Error {}

const folderOf = (config: Config) => path.join(config.dataDir, "pglite");

/** Writes what `write` produces into `file`, under a temporary name until it is complete. */
async function intoFile(file: string, write: (part: string) => Promise<void>): Promise<void> {
  const part = `${file}.part`;
  try {
    await write(part);
    await fs.rename(part, file);
  } finally {
    await fs.rm(part, { force: true });
  }
}

/** Asks the running server for a backup (POST /api/backup) with the API token given. */
async function backupThroughServer(file: string, url: string, held: FolderInUseError) {
  const token = process.env.LEDGERLINE_TOKEN;
  if (!token)
    throw new CommandError(
      `${held.message.split(":")[0]}: set LEDGERLINE_TOKEN to an API token (write scope) of a super administrator to take the backup through it`,
    );
  const answer = await fetch(`${url}/api/backup`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  }).catch((error: Error) => {
    throw new CommandError(`The server at ${url} cannot be reached: ${error.message}`);
  });
  if (!answer.ok || !answer.body) {
    const text = await answer.text();
    let message = text;
    try {
      message = (JSON.parse(text) as { message?: string }).message ?? text;
    } catch {}
    throw new CommandError(`The server refused the backup (${answer.status}): ${message}`);
  }
  const body = answer.body;
  await intoFile(file, (part) =>
    pipeline(Readable.fromWeb(body as never), createWriteStream(part, { mode: 0o600 })),
  );
}

/**
 * `backup <file>`: a consistent backup of the embedded database. When a server holds the data
 * folder, it takes the backup while it goes on serving; otherwise this command opens the folder.
 */
export async function backupCommand(config: Config, file: string, url: string): Promise<string> {
  if (config.databaseUrl) throw new CommandError(ON_POSTGRES);
  const target = path.resolve(file);
  const database = await openDatabase({ pgliteDir: folderOf(config) }).catch((error: unknown) => {
    if (error instanceof FolderInUseError) return error;
    throw error;
  });
  if (database instanceof FolderInUseError) {
    await backupThroughServer(target, url, database);
    return `Backup written to ${target} by the server at ${url}`;
  }
  try {
    const backup = claimBackup(database, { actor: null, ip: CLI_ORIGIN });
    await intoFile(target, async (part) => {
      await backup(createWriteStream(part, { mode: 0o600 }), path.basename(target));
    });
  } finally {
    await database.close();
  }
  return `Backup written to ${target}`;
}

/** `restore <file>`: the backup into the embedded database's folder, which must be empty. */
export async function restoreCommand(config: Config, file: string): Promise<string> {
  if (config.databaseUrl)
    throw new CommandError(
      "restore fills the embedded database; DATABASE_URL is set: restore PostgreSQL with pg_restore",
    );
  const folder = folderOf(config);
  await fs.mkdir(path.dirname(folder), { recursive: true });
  const unlock = await lockDataFolder(folder);
  try {
    const manifest = await restoreBackup(path.resolve(file), folder);
    return `Restored the backup taken ${manifest.takenAt} (PGlite ${manifest.pglite}) into ${folder}: start the server`;
  } catch (error) {
    if (error instanceof RestoreError) throw new CommandError(error.message);
    throw error;
  } finally {
    await unlock();
  }
}

/**
 * `export-to-postgres <url>`: the embedded database copied into an empty PostgreSQL database, the
 * way to move to PostgreSQL (then start the server with DATABASE_URL set to it).
 */
export async function exportCommand(config: Config, url: string): Promise<string> {
  if (!/^postgres(ql)?:\/\//.test(url))
    throw new CommandError(
      "export-to-postgres needs a PostgreSQL URL: postgres://user@host/database",
    );
  const folder = folderOf(config);
  await fs.access(path.join(folder, "PG_VERSION")).catch(() => {
    throw new CommandError(`There is no embedded database in ${folder}`);
  });
  const unlock = await lockDataFolder(folder);
  try {
    const { tables, rows } = await exportToPostgres(folder, url);
    return `Copied ${rows} rows of ${tables} tables into PostgreSQL: start the server with DATABASE_URL set to it`;
  } catch (error) {
    if (error instanceof ExportError) throw new CommandError(error.message);
    throw error;
  } finally {
    await unlock();
  }
}
