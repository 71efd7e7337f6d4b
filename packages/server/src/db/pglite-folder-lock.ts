import fs from "node:fs/promises";
import { processRunning } from "../process-running.ts";

/** The data folder is open in another process that is still running. */
export class FolderInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The embedded database in ${dir} is in use by process ${pid} (a running server or CLI command): stop it first, or set DATABASE_URL to use PostgreSQL`,
    );
    this.name = "FolderInUseError";
  }
}

/**
 * Takes the lock of a PGlite data folder for this process: `<dir>.lock` holding our process id.
 * PGlite has no lock of its own, and two processes writing one folder would corrupt it. A lock
 * left by a process that has ended (a crash, a kill) is taken over. Answers the release function.
 */
export async function lockDataFolder(dir: string): Promise<() => Promise<void>> {
  const file = `${dir}.lock`;
  for (;;) {
    try {
      await fs.writeFile(file, String(process.pid), { flag: "wx" });
      return () => fs.rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const holder = Number(await fs.readFile(file, "utf8").catch(() => ""));
    if (holder > 0 && holder !== process.pid && processRunning(holder))
      throw new FolderInUseError(dir, holder);
    // Left behind by a process that is gone (or half written): remove it and try again.
    await fs.rm(file, { force: true });
  }
}
