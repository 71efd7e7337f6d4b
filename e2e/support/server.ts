import { type ChildProcess, execFile, spawn } from "node:child_process";
import { openSync } from "node:fs";
import net from "node:net";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Environment of the server and the CLI: only our settings, never a developer's database. */
export function serverEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of [
    "DATABASE_URL",
    "NAV_HIDE",
    "MODEL_DIR",
    "CONNECTIONS_DIR",
    "WIKI_TARGET",
    "ADMIN_USERNAME",
    "NODE_OPTIONS",
  ]) {
    delete env[key];
  }
  return { ...env, ...settings };
}

/** Runs one command of the server CLI (the server must not be running on the same DATA_DIR). */
export async function cli(root: string, env: NodeJS.ProcessEnv, args: string[]): Promise<void> {
  try {
    await run(process.execPath, ["--import", "tsx", "packages/server/src/cli.ts", ...args], {
      cwd: root,
      env,
      timeout: 60_000,
    });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`CLI ${args.join(" ")} failed:\n${stdout}${stderr}`);
  }
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Starts the server in the background; its output goes to logFile. */
export function startServer(root: string, env: NodeJS.ProcessEnv, logFile: string): ChildProcess {
  const log = openSync(logFile, "a");
  // The compiled server, as `npm run serve` runs it in production (`npm run test:e2e` builds it).
  return spawn(process.execPath, ["--enable-source-maps", "packages/server/dist/main.js"], {
    cwd: root,
    env,
    stdio: ["ignore", log, log],
  });
}

/** Resolves once GET /healthz answers 200; rejects if the process ends or time runs out. */
export async function waitForHealth(
  baseURL: string,
  child: ChildProcess,
  timeoutMs = Number(process.env.E2E_START_TIMEOUT_MS ?? 120_000),
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `The server stopped during start (exit ${child.exitCode ?? child.signalCode})`,
      );
    }
    try {
      const response = await fetch(`${baseURL}/healthz`, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not answer ${baseURL}/healthz within ${timeoutMs / 1000} s`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, wait for the process to end (SIGKILL after timeoutMs). */
export async function stopProcess(pid: number, timeoutMs = 15_000): Promise<void> {
  if (!isAlive(pid)) return;
  process.kill(pid, "SIGTERM");
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, "SIGKILL");
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
