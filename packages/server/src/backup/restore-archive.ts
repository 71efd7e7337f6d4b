import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import tar from "tar-stream";
import { type BackupManifest, MANIFEST_ENTRY, pgliteVersion, restoreRefusal } from "./manifest.ts";

/** A restore that cannot be made; the message says why, and nothing was written. */
export class RestoreError extends Error {}

async function isEmptyOrAbsent(folder: string): Promise<boolean> {
  const entries = await fs.readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  return entries.length === 0;
}

/** The path an entry names inside `root`, refusing names that would leave it. */
function inside(root: string, name: string): string {
  const target = path.resolve(root, name);
  if (!target.startsWith(`${root}${path.sep}`)) throw new RestoreError(`Unsafe entry '${name}'`);
  return target;
}

async function textOf(entry: AsyncIterable<unknown>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of entry) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Unpacks the archive into `staging`, its manifest checked before anything else is read. */
async function unpack(file: string, staging: string): Promise<BackupManifest> {
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  let manifest: BackupManifest | undefined;
  try {
    for await (const entry of extract) {
      const { name, type } = entry.header;
      if (!manifest) {
        const text = name === MANIFEST_ENTRY ? await textOf(entry) : "";
        const refusal = restoreRefusal(text ? JSON.parse(text) : undefined, await pgliteVersion());
        if (refusal) throw new RestoreError(refusal);
        manifest = JSON.parse(text) as BackupManifest;
        continue;
      }
      const target = inside(staging, name);
      if (type === "directory") {
        await fs.mkdir(target, { recursive: true, mode: 0o700 });
        entry.resume();
      } else {
        await fs.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        await pipeline(entry, createWriteStream(target, { mode: 0o600 }));
      }
    }
    await reading;
  } catch (error) {
    extract.destroy();
    await reading.catch(() => undefined);
    if (error instanceof RestoreError) throw error;
    throw new RestoreError(`The backup cannot be read: ${(error as Error).message}`);
  }
  if (!manifest) throw new RestoreError("The backup is empty");
  return manifest;
}

/**
 * Restores a backup (writeBackup) into `folder`, the embedded database's folder, which must be
 * empty or absent. The files are unpacked beside it and opened once, which replays the WAL the
 * backup holds up to its end; only a database that opened is moved into place.
 */
export async function restoreBackup(file: string, folder: string): Promise<BackupManifest> {
  const target = path.resolve(folder);
  if (!(await isEmptyOrAbsent(target)))
    throw new RestoreError(
      `${target} is not empty: restore into an empty data folder (move the current one aside first)`,
    );
  await fs.access(file).catch(() => {
    throw new RestoreError(`There is no file ${file}`);
  });
  const staging = `${target}.restoring`;
  await fs.rm(staging, { recursive: true, force: true });
  try {
    const manifest = await unpack(file, staging);
    const restored = await PGlite.create(staging, { extensions: { pg_trgm } }).catch((error) => {
      throw new RestoreError(`The backup's database does not open: ${(error as Error).message}`);
    });
    try {
      await restored.exec("checkpoint");
    } finally {
      await restored.close();
    }
    await fs.rm(target, { recursive: true, force: true });
    await fs.rename(staging, target);
    return manifest;
  } finally {
    await fs.rm(staging, { recursive: true, force: true });
  }
}
