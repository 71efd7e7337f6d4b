import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { isOwnedPage, type WikiTarget } from "./wiki-target.ts";

const exec = promisify(execFile);
const AUTHOR = ["-c", "user.name=Ledgerline", "-c", "user.email=ledgerline@localhost"];

/** A remote (clone, then push) rather than a folder used as the repository itself. */
function isRemote(location: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(location) || /^[^/\\]+@[^:]+:/.test(location);
}

async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await exec("git", args, {
    cwd,
    env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
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
  const remote = isRemote(location);
  const dir = remote
    ? path.join(
        dataDir,
        "wiki-clones",
        createHash("sha256").update(location).digest("hex").slice(0, 12),
      )
    : path.resolve(location);
  const safeLocation = location.replace(/\/\/[^@/]+@/, "//***@");

  async function open(): Promise<void> {
    if (remote) {
      if (!(await exists(path.join(dir, ".git")))) {
        await fs.mkdir(path.dirname(dir), { recursive: true });
        await exec("git", ["clone", "--quiet", location, dir], {
          env: { ...process.env, GIT_TERMINAL_PROMPT: "0" },
        });
      }
      await git(dir, "fetch", "--quiet", "origin");
      const head = (await git(dir, "ls-remote", "--symref", "origin", "HEAD")).match(
        /refs\/heads\/(\S+)\s+HEAD/,
      );
      if (head) await git(dir, "reset", "--quiet", "--hard", `origin/${head[1]}`);
    } else if (!(await exists(path.join(dir, ".git")))) {
      await fs.mkdir(dir, { recursive: true });
      await git(dir, "init", "--quiet", "-b", "main");
    }
  }

  return {
    description: `git repository ${safeLocation}`,
    format: "markdown",
    indexUrl: undefined,
    async listPages() {
      await open();
      const pages = new Map<string, string>();
      for (const name of await fs.readdir(dir)) {
        const id = name.replace(/\.md$/, "");
        if (name.endsWith(".md") && isOwnedPage(id))
          pages.set(id, await fs.readFile(path.join(dir, name), "utf8"));
      }
      return pages;
    },
    putPage: (id, text) => fs.writeFile(path.join(dir, `${id}.md`), text),
    deletePage: (id) => fs.rm(path.join(dir, `${id}.md`), { force: true }),
    async finish(message) {
      await git(dir, "add", "--all");
      const staged = await git(dir, "status", "--porcelain");
      if (staged.trim() === "") return;
      await git(dir, ...AUTHOR, "commit", "--quiet", "-m", message);
      if (remote) await git(dir, "push", "--quiet", "origin", "HEAD");
    },
  };
}
