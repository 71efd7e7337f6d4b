import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testDatabaseKind } from "../testing/test-database.ts";
import { openDatabase } from "./connection.ts";
import { FolderInUseError, lockDataFolder } from "./pglite-folder-lock.ts";

describe.skipIf(testDatabaseKind() === "postgres")("the lock of a PGlite data folder", () => {
  let root: string;
  let dir: string;
  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-lock-"));
    dir = path.join(root, "pglite");
  });
  afterEach(() => fs.rm(root, { recursive: true, force: true }));

  it("refuses a second process while the first has the folder open, and frees it on close", async () => {
    // Another running process holds the lock (as a server would).
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"]);
    try {
      await fs.writeFile(`${dir}.lock`, String(other.pid));
      const refused = await openDatabase({ pgliteDir: dir }).catch((e) => e);
      expect(refused).toBeInstanceOf(FolderInUseError);
      expect(refused.message).toBe(
        `The embedded database in ${dir} is in use by process ${other.pid} (a running server or CLI command): stop it first, or set DATABASE_URL to use PostgreSQL`,
      );
      await expect(fs.stat(dir)).rejects.toThrow();
    } finally {
      other.kill();
    }
  });

  it("takes over a lock left by a process that has ended", async () => {
    const ended = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => ended.once("exit", resolve));
    await fs.writeFile(`${dir}.lock`, String(ended.pid));
    const database = await openDatabase({ pgliteDir: dir });
    expect(await fs.readFile(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    await database.close();
    await expect(fs.stat(`${dir}.lock`)).rejects.toThrow();
  }, 60_000);

  it("is not taken from a running process (process 1 here)", async () => {
    const release = await lockDataFolder(dir);
    await fs.writeFile(`${dir}.lock`, "1");
    // Process 1 runs (init), so its lock stands.
    await expect(lockDataFolder(dir)).rejects.toBeInstanceOf(FolderInUseError);
    await release();
  });
});
