import fs from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgDump } from "@electric-sql/pglite-tools";
import { PGlite as PGlite04 } from "pglite-04";
import { pg_trgm as pgTrgm04 } from "pglite-04/contrib/pg_trgm";

/** What an upgrade of a data folder did, for the start's log. */
export interface FolderUpgrade {
  from: string;
  backup: string;
}

// PGlite 0.4 kept PostgreSQL 17 data folders, which PGlite 0.5 (PostgreSQL 18) cannot open.
const OLD_MAJOR = "17";
// Written into the new folder once it holds everything, so a start interrupted between the two
// renames below finishes them rather than starting again.
const COMPLETE = "ledgerline-upgrade-complete";

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );

async function majorVersion(dir: string): Promise<string | undefined> {
  return (await fs.readFile(`${dir}/PG_VERSION`, "utf8").catch(() => undefined))?.trim();
}

/**
 * Brings a data folder written by PGlite 0.4 to the format of this PGlite: dumps it with the old
 * engine, restores the dump into a new folder beside it, then swaps the two, keeping the old one
 * as `<dir>-pg17-backup`. The old folder stays untouched until the new one is complete, so an
 * interrupted upgrade starts again at the next start. Answers undefined when there is nothing to do.
 */
export async function upgradeDataFolder(dir: string): Promise<FolderUpgrade | undefined> {
  const next = `${dir}.upgrading`;
  const backup = `${dir}-pg${OLD_MAJOR}-backup`;
  if (!(await exists(dir)) && (await exists(`${next}/${COMPLETE}`))) {
    await fs.rename(next, dir);
    await fs.rm(`${dir}/${COMPLETE}`);
    return { from: `PostgreSQL ${OLD_MAJOR}`, backup };
  }
  if ((await majorVersion(dir)) !== OLD_MAJOR) return undefined;

  const old = await PGlite04.create(dir, { extensions: { pg_trgm: pgTrgm04 } });
  let dump: string;
  try {
    // Multi-row INSERTs: COPY FROM STDIN is a psql feature that a restore through exec lacks.
    const file = await pgDump({
      pg: old as unknown as PGlite,
      args: ["--no-owner", "--no-privileges", "--rows-per-insert=1000"],
    });
    dump = await file.text();
  } finally {
    await old.close();
  }
  await fs.rm(next, { recursive: true, force: true });
  const restored = await PGlite.create(next, { extensions: { pg_trgm } });
  try {
    await restored.exec(dump);
    await restored.exec("checkpoint");
  } finally {
    await restored.close();
  }
  await fs.writeFile(`${next}/${COMPLETE}`, "");
  await fs.rm(backup, { recursive: true, force: true });
  await fs.rename(dir, backup);
  await fs.rename(next, dir);
  await fs.rm(`${dir}/${COMPLETE}`);
  return { from: `PostgreSQL ${OLD_MAJOR}`, backup };
}
