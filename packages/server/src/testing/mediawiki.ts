import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import fs from "node:fs/promises";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

/** Where Debian's `mediawiki` package puts the code (read only: a test never writes there). */
export const MEDIAWIKI_DIR = "/usr/share/mediawiki";

const run = promisify(execFile);

// Debian links these to /var/lib/mediawiki and /etc/mediawiki; the test wiki has its own.
const OWN_ENTRIES = new Set(["LocalSettings.php", "images", "cache", "config", "extensions"]);

// The CLI server has no shared memory cache (APCu is off in the CLI), so the main cache and the
// sessions (the API login lives in one) go to SQLite. Jobs are not run after requests: quicker,
// and nothing the tests read depends on them.
const EXTRA_SETTINGS = `
# Ledgerline test wiki
$wgMainCacheType = CACHE_DB;
$wgSessionCacheType = CACHE_DB;
$wgEnableEmail = false;
$wgJobRunRate = 0;
$wgShowExceptionDetails = true;
`;

/** Why a throwaway wiki cannot be built here (undefined when it can). */
export function mediawikiMissing(): string | undefined {
  if (!existsSync(path.join(MEDIAWIKI_DIR, "maintenance/install.php")))
    return `Debian's mediawiki package is not installed (${MEDIAWIKI_DIR})`;
  const php = spawnSync("php", ["-r", "exit(extension_loaded('pdo_sqlite') ? 0 : 3);"], {
    stdio: "ignore",
  });
  if (php.error || php.status === null) return "php is not installed (php-cli)";
  if (php.status === 3) return "php has no SQLite driver (php-sqlite3)";
  if (php.status !== 0) return `php does not start (exit ${php.status})`;
  return undefined;
}

export interface TestWiki {
  /** The wiki's api.php address, on 127.0.0.1. */
  apiUrl: string;
  /** Bot password login of the wiki's administrator (grants: edit, create, delete). */
  user: string;
  password: string;
  /** Another bot password of the administrator with only the given grants. */
  botPassword(appId: string, grants: string[]): Promise<{ user: string; password: string }>;
  /** Stops the PHP server (by its pid) and removes the wiki's folder. */
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/**
 * A throwaway MediaWiki on SQLite, built from Debian's package in a temporary folder and served by
 * `php -S 127.0.0.1:<free port>`. The code is linked, not copied: the folder holds links to
 * /usr/share/mediawiki plus its own LocalSettings.php, images, cache and database, and
 * MW_INSTALL_PATH points MediaWiki at it, so nothing outside the folder is written.
 */
export async function startTestWiki(): Promise<TestWiki> {
  const missing = mediawikiMissing();
  if (missing) throw new Error(missing);
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-mediawiki-"));
  const docroot = path.join(dir, "w");
  const dataDir = path.join(dir, "data");
  const env: NodeJS.ProcessEnv = { ...process.env, MW_INSTALL_PATH: docroot };
  delete env.MW_CONFIG_FILE;
  let server: ChildProcess | undefined;
  const kill = (signal: NodeJS.Signals) => {
    if (server?.pid === undefined || server.exitCode !== null || server.signalCode !== null) return;
    try {
      process.kill(server.pid, signal);
    } catch {
      // already gone
    }
  };
  // Should the test process end without stop(), the server must not outlive it.
  const killOnExit = () => kill("SIGKILL");
  const stop = async () => {
    if (server) {
      kill("SIGTERM");
      if (!(await exited(server, 5000))) {
        kill("SIGKILL");
        await exited(server, 5000);
      }
    }
    process.off("exit", killOnExit);
    await fs.rm(dir, { recursive: true, force: true });
  };
  try {
    await fs.mkdir(docroot);
    await fs.mkdir(dataDir);
    for (const entry of await fs.readdir(MEDIAWIKI_DIR)) {
      if (!OWN_ENTRIES.has(entry))
        await fs.symlink(path.join(MEDIAWIKI_DIR, entry), path.join(docroot, entry));
    }
    for (const own of ["images", "cache", "extensions"]) await fs.mkdir(path.join(docroot, own));

    const port = await freePort();
    const maintenance = (script: string, ...args: string[]) =>
      run("php", [path.join(docroot, "maintenance", script), ...args], {
        cwd: docroot,
        env,
        encoding: "utf8",
      }).catch((error: Error & { stdout?: string; stderr?: string }) => {
        throw new Error(`${script} failed: ${error.message}\n${error.stdout}\n${error.stderr}`);
      });
    await maintenance(
      "install.php",
      "--dbtype=sqlite",
      `--dbpath=${dataDir}`,
      "--dbname=wiki",
      `--server=http://127.0.0.1:${port}`,
      "--scriptpath=",
      `--confpath=${docroot}`,
      `--pass=${randomBytes(16).toString("hex")}`,
      "Ledgerline Test Wiki",
      "Admin",
    );
    await fs.appendFile(path.join(docroot, "LocalSettings.php"), EXTRA_SETTINGS);

    const botPassword = async (appId: string, grants: string[]) => {
      const password = randomBytes(16).toString("hex");
      await maintenance(
        "createBotPassword.php",
        `--appid=${appId}`,
        `--grants=${grants.join(",")}`,
        "Admin",
        password,
      );
      return { user: `Admin@${appId}`, password };
    };
    const bot = await botPassword("ledgerline", [
      "basic",
      "highvolume",
      "editpage",
      "createeditmovepage",
      "delete",
    ]);

    const started = spawn("php", ["-S", `127.0.0.1:${port}`, "-t", docroot], {
      cwd: docroot,
      env,
      stdio: ["ignore", "ignore", "pipe"],
    });
    server = started;
    process.on("exit", killOnExit);
    let log = "";
    started.stderr?.setEncoding("utf8");
    started.stderr?.on("data", (chunk: string) => {
      log = (log + chunk).slice(-4000);
    });
    const apiUrl = `http://127.0.0.1:${port}/api.php`;
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (started.exitCode !== null || started.signalCode !== null)
        throw new Error(`php -S ended (${started.exitCode ?? started.signalCode}):\n${log}`);
      try {
        const res = await fetch(`${apiUrl}?action=query&meta=siteinfo&format=json`);
        const body = (await res.json()) as { query?: { general?: { generator?: string } } };
        if (res.ok && body.query?.general?.generator) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline)
        throw new Error(`the test wiki did not answer at ${apiUrl}:\n${log}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { apiUrl, user: bot.user, password: bot.password, botPassword, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
