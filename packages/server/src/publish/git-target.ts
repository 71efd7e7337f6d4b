import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { markdownFileName } from "./markdown.ts";
import { gitTargetName, isRemoteGit } from "./target-name.ts";
import { isOwnedPage, type WikiTarget, WikiTargetError } from "./wiki-target.ts";

const exec = promisify(execFile);
const AUTHOR = ["-c", "user.name=Ledgerline", "-c", "user.email=ledgerline@localhost"];

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec("git", args, {
    cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

// Reads a few files at a time: one at a time waits on each in turn, thousands at once would each
// hold a file descriptor.
const PARALLEL_READS = 16;

/** The owned pages among the folder's `.md` files: page id -> text. */
async function readPages(dir: string): Promise<Map<string, string>> {
  const ids = (await fs.readdir(dir))
    .filter((name) => name.endsWith(".md"))
    .map((name) => name.slice(0, -".md".length))
    .filter(isOwnedPage);
  const pages = new Map<string, string>();
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < ids.length; i = next++)
      pages.set(
        ids[i],
        await fs.readFile(path.join(dir, markdownFileName({ id: ids[i] })), "utf8"),
      );
  };
  await Promise.all(Array.from({ length: PARALLEL_READS }, reader));
  return pages;
}

async function exists(p: string): Promise<boolean> {
  return fs.stat(p).then(
    () => true,
    () => false,
  );
}

/**
 * Markdown pages in a git repository, which is what GitLab, GitHub, Gitea and Azure DevOps wikis
 * are: a local folder (made a repository when missing) or a remote URL (cloned under the data
 * folder, then pushed). One commit per publish; none when nothing changed.
 */
export function gitTarget(location: string, dataDir: string): WikiTarget {
  const remote = isRemoteGit(location);
  const dir = remote
    ? path.join(
        dataDir,
        "wiki-clones",
        createHash("sha256").update(location).digest("hex").slice(0, 12),
      )
    : path.resolve(location);
  const name = gitTargetName(location);
  // git's and the file system's own texts name server paths and, for a remote, its address with
  // any credentials: they stay in the cause, for the server log.
  const step = async <T>(failure: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw new WikiTargetError(failure, { cause: error });
    }
  };

  async function open(): Promise<void> {
    if (remote) {
      if (!(await exists(path.join(dir, ".git")))) {
        await step(`the ${name} could not be cloned`, async () => {
          await fs.mkdir(path.dirname(dir), { recursive: true });
          await exec("git", ["clone", "--quiet", location, dir], {
            env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
          });
        });
      }
      await step(`the ${name} could not be fetched`, async () => {
        await git(dir, "fetch", "--quiet", "origin");
        const head = (await git(dir, "ls-remote", "--symref", "origin", "HEAD")).match(
          /refs\/heads\/(\S+)\s+HEAD/,
        );
        if (head) await git(dir, "reset", "--quiet", "--hard", `origin/${head[1]}`);
      });
    } else if (!(await exists(path.join(dir, ".git")))) {
      await step(`the ${name} could not be created`, async () => {
        await fs.mkdir(dir, { recursive: true });
        await git(dir, "init", "--quiet", "-b", "main");
      });
    }
  }

  return {
    description: name,
    format: "markdown",
    indexUrl: undefined,
    async listPages() {
      await open();
      return step(`the pages in the ${name} could not be read`, () => readPages(dir));
    },
    putPage: (id, text) =>
      step(`the page '${id}' could not be written to the ${name}`, () =>
        fs.writeFile(path.join(dir, markdownFileName({ id })), text),
      ),
    deletePage: (id) =>
      step(`the page '${id}' could not be removed from the ${name}`, () =>
        fs.rm(path.join(dir, markdownFileName({ id })), { force: true }),
      ),
    async finish(message) {
      const staged = await step(`git could not commit to the ${name}`, async () => {
        await git(dir, "add", "--all");
        const changes = await git(dir, "status", "--porcelain");
        if (changes.trim() !== "") await git(dir, ...AUTHOR, "commit", "--quiet", "-m", message);
        return changes.trim() !== "";
      });
      if (staged && remote)
        await step(`the push to the ${name} failed`, () =>
          git(dir, "push", "--quiet", "origin", "HEAD"),
        );
    },
  };
}
