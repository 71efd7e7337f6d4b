import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { processRunning } from "../process-running.ts";

// An upload's file is written to DATA_DIR/uploads and removed before its answer leaves; a crash
// (or a kill) in between leaves it there. Each file's name starts with the id of the process that
// wrote it, so that a start can tell the leftovers of a process that has ended from the files of
// one still at work (a CLI command or another server on the same folder).

/** The folder of the files of uploads under way. */
export const uploadFolder = (dataDir: string): string => path.join(dataDir, "uploads");

/** A new file name in the folder for an upload of this process. */
export const newUploadPath = (folder: string): string =>
  path.join(folder, `${process.pid}-${randomBytes(8).toString("hex")}.xlsx`);

/**
 * Removes what uploads interrupted by a crash left in the folder: files last written before this
 * process started (none of its own uploads), by a process that is no longer running (none of
 * another's under way), or named otherwise (an earlier version's). Answers how many it removed.
 */
export async function sweepUploadLeftovers(
  dataDir: string,
  startedAt: number = performance.timeOrigin,
): Promise<number> {
  const folder = uploadFolder(dataDir);
  const names = await fs.readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [];
    throw error;
  });
  let removed = 0;
  for (const name of names) {
    const file = path.join(folder, name);
    const stat = await fs.lstat(file).catch(() => undefined);
    if (!stat?.isFile() || stat.mtimeMs >= startedAt) continue;
    const writer = Number(/^(\d+)-/.exec(name)?.[1]);
    if (writer > 0 && writer !== process.pid && processRunning(writer)) continue;
    await fs.rm(file, { force: true });
    removed += 1;
  }
  return removed;
}
