import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContextModel } from "../model/model.ts";
import type { TestApp } from "../testing/test-app.ts";
import { gitTarget } from "./git-target.ts";
import { publishDictionary } from "./publish.service.ts";
import { appWithShopDictionary } from "./testing/dictionary.ts";
import type { WikiTarget } from "./wiki-target.ts";

// The git target tells unchanged pages by the blob ids in git's index, not by reading the files:
// whatever happened to the wiki since the last publish (a push, a hand edit, a removal), what it
// holds now is what is compared.

let t: TestApp;
let context: ContextModel;
let work: string;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=Someone", "-c", "user.email=someone@localhost", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

const publish = async (target: WikiTarget) => {
  const result = await publishDictionary(t.database.db, context, target, {
    user: "admin",
    wikiRoot: "",
  });
  expect(result.error, result.message).toBe(false);
  return result.message.slice(result.message.indexOf(": ") + 2);
};

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-git-target-"));
  ({ t, context } = await appWithShopDictionary());
});
afterAll(async () => {
  await t.close();
  await fs.rm(work, { recursive: true, force: true });
});

describe("a git wiki changed since the last publish", () => {
  it("writes again the pages someone else edited or removed in the remote, and leaves their other files alone", async () => {
    const bare = path.join(work, "wiki.git");
    execFileSync("git", ["init", "--quiet", "--bare", "-b", "main", bare]);
    const target = gitTarget(`file://${bare}`, path.join(work, "data"));
    expect(await publish(target)).toBe("4 pages written, 0 unchanged, 0 removed");
    const clone = path.join(work, "someone");
    git(work, "clone", "--quiet", bare, clone);
    const home = await fs.readFile(path.join(clone, "Home.md"), "utf8");
    const application = await fs.readFile(path.join(clone, "Application-Demo.md"), "utf8");
    await fs.writeFile(path.join(clone, "Home.md"), `${home}Edited by hand.\n`);
    await fs.rm(path.join(clone, "Application-Demo.md"));
    await fs.writeFile(path.join(clone, "Notes.md"), "Not a dictionary page.\n");
    git(clone, "add", "--all");
    git(clone, "commit", "--quiet", "-m", "Edits in the wiki");
    git(clone, "push", "--quiet", "origin", "HEAD");

    expect(await publish(target)).toBe("2 pages written, 2 unchanged, 0 removed");
    git(clone, "pull", "--quiet", "origin", "main");
    expect(await fs.readFile(path.join(clone, "Home.md"), "utf8")).toBe(home);
    expect(await fs.readFile(path.join(clone, "Application-Demo.md"), "utf8")).toBe(application);
    expect(await fs.readFile(path.join(clone, "Notes.md"), "utf8")).toBe(
      "Not a dictionary page.\n",
    );
    expect(await publish(target)).toBe("0 pages written, 4 unchanged, 0 removed");
    expect(git(clone, "rev-list", "--count", "origin/main")).toBe("3");
  });

  it("writes again the pages changed or removed in a local folder, committed or not", async () => {
    const folder = path.join(work, "local");
    const target = gitTarget(folder, path.join(work, "data"));
    expect(await publish(target)).toBe("4 pages written, 0 unchanged, 0 removed");
    const home = await fs.readFile(path.join(folder, "Home.md"), "utf8");
    await fs.writeFile(path.join(folder, "Home.md"), "Overwritten, not committed.\n");
    await fs.rm(path.join(folder, "Application-Demo.md"));

    expect(await publish(target)).toBe("2 pages written, 2 unchanged, 0 removed");
    expect(await fs.readFile(path.join(folder, "Home.md"), "utf8")).toBe(home);
    // The hand edit never reached a commit: the publish restored what the last one holds.
    expect(git(folder, "rev-list", "--count", "HEAD")).toBe("1");
    expect(git(folder, "status", "--porcelain")).toBe("");

    await fs.writeFile(path.join(folder, "Home.md"), "Overwritten and committed.\n");
    git(folder, "commit", "--quiet", "-am", "By hand");
    expect(await publish(target)).toBe("1 pages written, 3 unchanged, 0 removed");
    expect(await fs.readFile(path.join(folder, "Home.md"), "utf8")).toBe(home);
    expect(git(folder, "rev-list", "--count", "HEAD")).toBe("3");
  });

  it("compares by the blob ids of a SHA-256 repository too", async () => {
    const folder = path.join(work, "sha256");
    execFileSync("git", ["init", "--quiet", "--object-format=sha256", "-b", "main", folder]);
    const target = gitTarget(folder, path.join(work, "data"));
    expect(await publish(target)).toBe("4 pages written, 0 unchanged, 0 removed");
    expect(await publish(target)).toBe("0 pages written, 4 unchanged, 0 removed");
    expect(git(folder, "rev-list", "--count", "HEAD")).toBe("1");
  });
});
