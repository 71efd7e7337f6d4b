import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { Gauge } from "prom-client";
import { recordSecurityEvent } from "../audit/audit.service.ts";
import type { Database } from "../db/connection.ts";
import { BadRequestError, ConflictError } from "../errors.ts";
import { operationStarted, outcomeOfError, processRegistry } from "../metrics/operations.ts";
import { inSpan } from "../tracing/tracer.ts";
import { writeBackup } from "./backup-archive.ts";
import type { BackupManifest } from "./manifest.ts";

export const ON_POSTGRES =
  "Backups here are of the embedded database; on PostgreSQL use pg_dump or point-in-time recovery (README: Backups)";

const lastBackup = new Gauge({
  name: "ledgerline_backup_last_success_seconds",
  help: "When the last backup of the embedded database finished, as a Unix time",
  registers: [processRegistry],
});

/** Who asked for a backup, for the audit trail: a person or token (by username), or the server. */
export interface BackupRequester {
  actor: string | null;
  ip: string;
}

// The folders being backed up by this process: one backup of a folder at a time.
const running = new Set<string>();

/** The name a backup taken at `moment` is given: `ledgerline-20261129T101500Z.tar.gz`. */
export function backupFileName(moment: Date): string {
  const stamp = moment
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "Z");
  return `ledgerline-${stamp}.tar.gz`;
}
const BACKUP_FILE = /^ledgerline-\d{8}T\d{6}Z\.tar\.gz$/;

/**
 * Takes the right to back up the embedded database, refusing on PostgreSQL and while
 * another backup runs; answers the backup to run, which gives the right back when it ends.
 */
export function claimBackup(
  database: Database,
  by: BackupRequester,
): (out: NodeJS.WritableStream, file: string) => Promise<BackupManifest> {
  if (database.kind !== "pglite") throw new BadRequestError(ON_POSTGRES);
  const folder = database.folder;
  if (!folder) throw new BadRequestError("This database is held in memory: it has no backup");
  if (running.has(folder))
    throw new ConflictError("A backup is being taken: try again when it has finished");
  running.add(folder);
  return async (out, file) => {
    const end = operationStarted("backup");
    try {
      const manifest = await inSpan("backup", { file }, () =>
        writeBackup(database.db, folder, out),
      );
      await recordSecurityEvent(database.db, {
        kind: "backup-taken",
        actor: by.actor,
        subject: file,
        ip: by.ip,
        detail: { pglite: manifest.pglite, takenAt: manifest.takenAt },
      });
      end("finished");
      lastBackup.set(Date.now() / 1000);
      return manifest;
    } catch (error) {
      end(outcomeOfError(error));
      throw error;
    } finally {
      running.delete(folder);
    }
  };
}

/**
 * Backs up into a file of `dir` named for the moment (written under a temporary name, renamed once
 * complete), then removes all but the newest `keep` backups there. Answers the file's path.
 */
export async function backUpInto(
  database: Database,
  options: { dir: string; keep: number; by: BackupRequester },
): Promise<string> {
  await fs.mkdir(options.dir, { recursive: true });
  const backup = claimBackup(database, options.by);
  const name = backupFileName(new Date());
  const file = path.join(options.dir, name);
  try {
    await backup(createWriteStream(`${file}.part`, { mode: 0o600 }), name);
    await fs.rename(`${file}.part`, file);
  } finally {
    await fs.rm(`${file}.part`, { force: true });
  }
  const kept = (await fs.readdir(options.dir)).filter((f) => BACKUP_FILE.test(f)).sort();
  for (const old of kept.slice(0, Math.max(kept.length - options.keep, 0)))
    await fs.rm(path.join(options.dir, old), { force: true });
  return file;
}
