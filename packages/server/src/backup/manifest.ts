import fs from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";

/** The first entry of a backup: what took it, so a restore can tell whether it may read it. */
export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  /** The PGlite release whose data folder the backup holds. */
  pglite: string;
  /** PostgreSQL's `version()` inside it. */
  postgres: string;
  takenAt: string;
}

export const BACKUP_FORMAT = "ledgerline-backup/1";
export const MANIFEST_ENTRY = "ledgerline-backup.json";

/** The version of the PGlite package this release runs. */
export async function pgliteVersion(): Promise<string> {
  const main = createRequire(import.meta.url).resolve("@electric-sql/pglite");
  let dir = path.dirname(main);
  for (;;) {
    const file = path.join(dir, "package.json");
    const found = await fs.readFile(file, "utf8").catch(() => undefined);
    if (found) {
      const parsed = JSON.parse(found) as { name?: string; version: string };
      if (parsed.name === "@electric-sql/pglite") return parsed.version;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("The PGlite package's version cannot be read");
    dir = parent;
  }
}

// PGlite keeps one PostgreSQL major version per minor release (0.4: 17, 0.5: 18): a data folder is
// readable by a release of the same minor version only.
const series = (version: string) => version.split(".").slice(0, 2).join(".");

/** Why this release cannot restore a backup with this manifest, or undefined when it can. */
export function restoreRefusal(manifest: unknown, running: string): string | undefined {
  const m = manifest as Partial<BackupManifest> | undefined;
  if (m?.format !== BACKUP_FORMAT || typeof m.pglite !== "string")
    return "This file is not a Ledgerline backup (it does not begin with ledgerline-backup.json)";
  if (series(m.pglite) !== series(running))
    return `This backup holds a PGlite ${m.pglite} database (${m.postgres}); this release runs PGlite ${running}: restore it with a release on PGlite ${series(m.pglite)}, then start this one on it`;
  return undefined;
}
