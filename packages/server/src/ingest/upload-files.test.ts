import { spawn } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newUploadPath, sweepUploadLeftovers, uploadFolder } from "./upload-files.ts";

describe("sweepUploadLeftovers", () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-sweep-"));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  async function ended(): Promise<number> {
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => child.once("exit", resolve));
    return child.pid as number;
  }

  it("removes the files of ended processes and its own older than the start, and nothing else", async () => {
    const folder = uploadFolder(dataDir);
    expect(await sweepUploadLeftovers(dataDir)).toBe(0); // no folder yet
    await fs.mkdir(folder);
    const start = Date.now() - 60_000;
    const before = new Date(start - 60_000);
    const after = new Date(start + 30_000);
    const dead = await ended();
    const files = {
      // Left by a process that has ended, or by an earlier process that had this one's id.
      deadBefore: [`${dead}-a.xlsx`, before],
      ownBefore: [`${process.pid}-b.xlsx`, before],
      legacyBefore: ["0123abcd.xlsx", before],
      // Written since the start: this process's upload under way, or not to be judged yet.
      ownAfter: [path.basename(newUploadPath(folder)), after],
      deadAfter: [`${dead}-c.xlsx`, after],
      // Another running process's (the parent of this one): it may be reading it.
      liveBefore: [`${process.ppid}-d.xlsx`, before],
    } as const;
    for (const [name, time] of Object.values(files)) {
      await fs.writeFile(path.join(folder, name), "PK");
      await fs.utimes(path.join(folder, name), time, time);
    }
    await fs.mkdir(path.join(folder, "a-folder"));

    expect(await sweepUploadLeftovers(dataDir, start)).toBe(3);
    expect((await fs.readdir(folder)).sort()).toEqual(
      ["a-folder", files.ownAfter[0], files.deadAfter[0], files.liveBefore[0]].sort(),
    );
  });
});
