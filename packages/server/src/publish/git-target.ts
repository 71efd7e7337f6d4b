import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { markdownFileName } from "./markdown.ts";
import {
  credentialsOf,
  gitTargetName,
  isRemoteGit,
  textWithoutCredentials,
} from "./target-name.ts";
import { isOwnedPage, type WikiTarget, WikiTargetError } from "./wiki-target.ts";

const exec = promisify(execFile);
const AUTHOR = ["-c", "user.name=Ledgerline", "-c", "user.email=ledgerline@localhost"];

/**
 * A git command that failed, told without credentials: Node's own message repeats the command line
 * (a remote's address, token included) and git's error output names addresses too. It is the
 * cause a WikiTargetError keeps, for the server log; `code` is git's exit status.
 */
export class GitCommandError extends Error {
  override name = "GitCommandError";
  constructor(
    message: string,
    readonly code: unknown,
    readonly stderr: string,
  ) {
    super(message);
  }
}

type Git = (cwd: string | undefined, ...args: string[]) => Promise<string>;

/**
 * Runs git without a terminal prompt, `env` added to its environment; a failure is a
 * GitCommandError without `secrets` or URL credentials.
 */
function gitWithout(secrets: readonly string[], env: Record<string, string> = {}): Git {
  return async (cwd, ...args) => {
    try {
      const { stdout } = await exec("git", args, {
        cwd,
        env: { ...process.env, ...env, GIT_TERMINAL_PROMPT: "0" },
        maxBuffer: 64 * 1024 * 1024,
      });
      return stdout;
    } catch (error) {
      const failure = error as { message?: unknown; code?: unknown; stderr?: unknown };
      const clean = (text: unknown) => textWithoutCredentials(String(text ?? ""), secrets);
      throw new GitCommandError(clean(failure.message), failure.code, clean(failure.stderr));
    }
  };
}

/**
 * How git reaches a remote: an http(s) address without its user name and password, which travel
 * instead as a Basic Authorization header for that host, set in git's environment
 * (`GIT_CONFIG_*`, git 2.31 or later). On git's command line any user of the machine could read
 * them (`ps`), and a clone keeps its address in `.git/config` under the data folder. A token in
 * the query, where some hosts take one, stays in the address.
 */
export function remoteAccess(
  location: string,
  environment: NodeJS.ProcessEnv = process.env,
): { address: string; env: Record<string, string> } {
  const url = URL.canParse(location) ? new URL(location) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || (url.username === "" && url.password === ""))
    return { address: location, env: {} };
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text);
    } catch {
      return text;
    }
  };
  const basic = Buffer.from(`${decode(url.username)}:${decode(url.password)}`).toString("base64");
  url.username = "";
  url.password = "";
  // After the settings the server's own environment gives git this way (a company's authority
  // for https, say), which stay.
  const given = Number(environment.GIT_CONFIG_COUNT);
  const at = Number.isInteger(given) && given > 0 ? given : 0;
  return {
    address: url.toString(),
    env: {
      GIT_CONFIG_COUNT: String(at + 1),
      [`GIT_CONFIG_KEY_${at}`]: `http.${url.origin}/.extraHeader`,
      [`GIT_CONFIG_VALUE_${at}`]: `Authorization: Basic ${basic}`,
    },
  };
}

/**
 * The owned pages among the folder's `.md` files: page id -> blob id. The working tree is added to
 * the index first, so the index says what the folder holds now, hand edits and removals included;
 * git hashes only the files whose size or time changed since it last looked, so 20,000 unchanged
 * pages cost a listing rather than 20,000 reads.
 */
async function indexedPages(git: Git, dir: string): Promise<Map<string, string>> {
  await git(dir, "add", "--all");
  const pages = new Map<string, string>();
  for (const entry of (await git(dir, "ls-files", "--stage", "-z")).split("\0")) {
    // `<mode> <blob id> <stage>\t<path>`: stage 0 is the file itself, never a side of a conflict.
    const match = /^\d+ ([0-9a-f]+) 0\t([^/]+)\.md$/.exec(entry);
    if (match && isOwnedPage(match[2])) pages.set(match[2], match[1]);
  }
  return pages;
}

/** The id git gives a file holding `text`, in the repository's object format (sha1 or sha256). */
function blobId(format: string, text: string): string {
  const bytes = Buffer.from(text);
  return createHash(format).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Whether the index differs from the last commit (or, before the first, holds anything). */
async function hasStagedChanges(git: Git, dir: string): Promise<boolean> {
  try {
    await git(dir, "diff", "--cached", "--quiet");
    return false;
  } catch (error) {
    if ((error as { code?: unknown }).code === 1) return true;
    throw error;
  }
}

// Writes a few files at a time: one at a time waits on each in turn, thousands at once would each
// hold a file descriptor.
const PARALLEL_WRITES = 16;

/**
 * Runs file writes a few at a time. The first failure is thrown by the next `run` or by `settle`,
 * which waits for every write.
 */
function writeQueue() {
  const running = new Set<Promise<void>>();
  let failure: { error: unknown } | undefined;
  const check = () => {
    if (failure) throw failure.error;
  };
  return {
    async run(work: () => Promise<void>): Promise<void> {
      check();
      while (running.size >= PARALLEL_WRITES) await Promise.race(running);
      check();
      const write: Promise<void> = work()
        .catch((error: unknown) => {
          failure ??= { error };
        })
        .finally(() => running.delete(write));
      running.add(write);
    },
    async settle(): Promise<void> {
      await Promise.all(running);
      check();
    },
  };
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
  const access = remoteAccess(location);
  const git = gitWithout(credentialsOf(location), access.env);
  // git's and the file system's own texts name server paths and a remote's address: they stay in
  // the cause, for the server log (credentials taken out by gitWithout).
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
          await git(undefined, "clone", "--quiet", access.address, dir);
        });
      }
      await step(`the ${name} could not be fetched`, async () => {
        // A clone made before credentials left the address keeps them there until it is set anew.
        await git(dir, "remote", "set-url", "origin", access.address);
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

  let objectFormat = "sha1";
  // One queue per publish: a failed publish's failure must not fail the next one.
  let writes = writeQueue();
  return {
    description: name,
    format: "markdown",
    indexUrl: undefined,
    async listPages() {
      // Writes a failed publish left running end before this one looks at the folder.
      await writes.settle().catch(() => undefined);
      writes = writeQueue();
      await open();
      return step(`the pages in the ${name} could not be read`, async () => {
        // A git older than 2.25 does not know the option and echoes it: its repositories are SHA-1.
        const format = (await git(dir, "rev-parse", "--show-object-format")).trim();
        objectFormat = format === "sha256" ? "sha256" : "sha1";
        return indexedPages(git, dir);
      });
    },
    digest: (text) => blobId(objectFormat, text),
    putPage: (id, text) =>
      writes.run(() =>
        step(`the page '${id}' could not be written to the ${name}`, () =>
          fs.writeFile(path.join(dir, markdownFileName({ id })), text),
        ),
      ),
    deletePage: (id) =>
      writes.run(() =>
        step(`the page '${id}' could not be removed from the ${name}`, () =>
          fs.rm(path.join(dir, markdownFileName({ id })), { force: true }),
        ),
      ),
    async finish(message) {
      await writes.settle();
      const committed = await step(`git could not commit to the ${name}`, async () => {
        await git(dir, "add", "--all");
        if (!(await hasStagedChanges(git, dir))) return false;
        await git(dir, ...AUTHOR, "commit", "--quiet", "-m", message);
        return true;
      });
      if (committed && remote)
        await step(`the push to the ${name} failed`, () =>
          git(dir, "push", "--quiet", "origin", "HEAD"),
        );
    },
  };
}
