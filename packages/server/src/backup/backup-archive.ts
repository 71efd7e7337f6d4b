import { once } from "node:events";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import { sql } from "kysely";
import tar from "tar-stream";
import type { Db } from "../db/connection.ts";
import { BACKUP_FORMAT, type BackupManifest, MANIFEST_ENTRY, pgliteVersion } from "./manifest.ts";

// Folders whose files PostgreSQL makes afresh at start (or, for pg_wal, that are added once the
// backup has ended): written as empty folders, as pg_basebackup does.
const EMPTIED = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);
const SKIPPED = new Set([
  "postmaster.pid",
  "postmaster.opts",
  "backup_label",
  "backup_label.old",
  "tablespace_map",
  "pg_internal.init",
]);
// Copied last: the control file must be no older than the data files and the WAL beside it.
const CONTROL_FILE = "global/pg_control";
// Holds the WAL from the backup's start until it has been copied, whatever checkpoints run meanwhile.
const SLOT = "ledgerline_backup";
const READ_CHUNK = 1 << 20;

type Pack = ReturnType<typeof tar.pack>;

/** The archive being written, and a promise that rejects if its output fails (a reader gone). */
interface Archive {
  pack: Pack;
  broken: Promise<never>;
}

/** Waits for `step`, or gives up with the output's error: a stream that failed never drains. */
const unlessBroken = <T>(archive: Archive, step: Promise<T>) =>
  Promise.race([step, archive.broken]);

/** Adds an entry from memory. */
async function addText(archive: Archive, name: string, text: string): Promise<void> {
  await unlessBroken(
    archive,
    new Promise<void>((resolve, reject) =>
      archive.pack.entry({ name, mode: 0o600 }, text, (error) =>
        error ? reject(error) : resolve(),
      ),
    ),
  );
}

/**
 * Adds a file as it is now. A data file may grow or shrink while it is read: the size taken when it
 * was opened is what the entry holds, a shortfall padded with zeros (WAL replay rewrites any page
 * the backup caught mid-write). A file gone before it was opened is left out.
 */
async function addFile(archive: Archive, folder: string, name: string): Promise<void> {
  const handle = await fs.open(path.join(folder, name)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (!handle) return;
  try {
    const { size, mode, mtime } = await handle.stat();
    let entered: (error?: Error | null) => void = () => undefined;
    const written = new Promise<void>((resolve, reject) => {
      entered = (error) => (error ? reject(error) : resolve());
    });
    const entry = archive.pack.entry({ name, size, mode: mode & 0o777, mtime }, entered);
    let offset = 0;
    while (offset < size) {
      const buffer = Buffer.alloc(Math.min(READ_CHUNK, size - offset));
      // Bytes past a shrunk file's end stay zeros.
      await unlessBroken(archive, handle.read(buffer, 0, buffer.length, offset));
      offset += buffer.length;
      if (!entry.write(buffer)) await unlessBroken(archive, once(entry, "drain"));
    }
    entry.end(() => undefined);
    await unlessBroken(archive, written);
  } finally {
    await handle.close();
  }
}

function addFolderEntry(archive: Archive, name: string): void {
  archive.pack.entry({ name, type: "directory", mode: 0o700 });
}

/** The data files, depth first, leaving out what the backup adds itself or PostgreSQL remakes. */
async function addDataFiles(archive: Archive, folder: string, under = ""): Promise<void> {
  const entries = await fs.readdir(path.join(folder, under), { withFileTypes: true });
  for (const entry of entries) {
    const name = under ? `${under}/${entry.name}` : entry.name;
    if (SKIPPED.has(entry.name) || name === CONTROL_FILE) continue;
    if (entry.isDirectory()) {
      addFolderEntry(archive, name);
      if (!EMPTIED.has(name)) await addDataFiles(archive, folder, name);
    } else if (entry.isFile()) await addFile(archive, folder, name);
  }
}

/** The WAL segments from the one the backup started in on (names sort in WAL order). */
async function addWal(archive: Archive, folder: string, startSegment: string): Promise<void> {
  const segments = (await fs.readdir(path.join(folder, "pg_wal"), { withFileTypes: true }))
    .filter((e) => e.isFile() && /^[0-9A-F]{24}$/.test(e.name) && e.name >= startSegment)
    .map((e) => e.name)
    .sort();
  addFolderEntry(archive, "pg_wal/archive_status");
  for (const segment of segments) await addFile(archive, folder, `pg_wal/${segment}`);
}

/**
 * Writes a consistent backup of the embedded database's folder to `out` (a gzipped tar), while the
 * database goes on serving: PostgreSQL's own online backup (pg_backup_start / pg_backup_stop, the
 * way pg_basebackup works) copies the files as they are, then the WAL written meanwhile, which
 * a restore replays up to the backup's end. Statements wait only for the checkpoint that starts it.
 */
export async function writeBackup(db: Db, folder: string, out: NodeJS.WritableStream) {
  const pack = tar.pack();
  const written = pipeline(pack, createGzip({ level: 1 }), out);
  const archive: Archive = {
    pack,
    broken: new Promise<never>((_, reject) => {
      written.catch(reject);
    }),
  };
  // Settled either way: an error in the files' reading ends the archive too.
  archive.broken.catch(() => undefined);
  const { rows } = await sql<{
    version: string;
  }>`select current_setting('server_version') as version`.execute(db);
  const manifest: BackupManifest = {
    format: BACKUP_FORMAT,
    pglite: await pgliteVersion(),
    postgres: rows[0].version,
    takenAt: new Date().toISOString(),
  };
  try {
    await addText(archive, MANIFEST_ENTRY, JSON.stringify(manifest, null, 2));
    await sql`select pg_create_physical_replication_slot(${SLOT}, true, true)`.execute(db);
    try {
      const start = await sql<{ segment: string }>`
        select pg_walfile_name(pg_backup_start('ledgerline', true)) as segment`.execute(db);
      let label: string;
      try {
        await addDataFiles(archive, folder);
      } finally {
        const stop = await sql<{ labelfile: string }>`
          select labelfile from pg_backup_stop(false)`.execute(db);
        label = stop.rows[0].labelfile;
      }
      await addWal(archive, folder, start.rows[0].segment);
      await addFile(archive, folder, CONTROL_FILE);
      await addText(archive, "backup_label", label);
    } finally {
      await sql`select pg_drop_replication_slot(${SLOT})`.execute(db);
    }
    pack.finalize();
  } catch (error) {
    pack.destroy(error as Error);
    throw error;
  }
  await written;
  return manifest;
}
