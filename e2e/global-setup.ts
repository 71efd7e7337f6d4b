import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { keepMailSink, startMailSink } from "./support/mail.ts";
import { startOidcForE2e, stopOidcForE2e } from "./support/oidc.ts";
import {
  cli,
  freePort,
  serverEnv,
  startServer,
  stopProcess,
  waitForHealth,
} from "./support/server.ts";
import { admin, cliUsers } from "./support/users.ts";

/** Copies the built web app, retrying while a concurrent build leaves it incomplete. */
async function snapshotBuild(dist: string, target: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    rmSync(target, { recursive: true, force: true });
    try {
      cpSync(dist, target, { recursive: true });
      const html = readFileSync(path.join(target, "index.html"), "utf8");
      const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]);
      if (assets.length > 0 && assets.every((a) => existsSync(path.join(target, a)))) return;
    } catch {
      // dist is being rewritten right now
    }
    if (attempt === 10) throw new Error(`${dist} is incomplete: run \`npm run build\` again`);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
  }
}

/**
 * Prepares a throw-away database and starts the server for the whole run:
 *  1. a first start on the empty DATA_DIR lets the server create the super administrator from
 *     ADMIN_PASSWORD (with DEMO=1: every role of every context) and seed the demo data;
 *     it only does so on a database without users, so this must come before the CLI;
 *  2. the server is stopped (the embedded database is single-process) and the CLI adds the
 *     test users and their roles;
 *  3. the server starts again, serving a copy of packages/web/dist; its address goes to
 *     E2E_BASE_URL for the workers, its process id and DATA_DIR to global-teardown.ts.
 * Before all this, a plain SMTP server starts on a free port; the server sends its notifications
 * there (polling its outbox every 200 ms), and each message lands as an .eml file in the folder
 * published as E2E_MAIL_DIR.
 */
export default async function globalSetup(config: FullConfig): Promise<void> {
  const root = config.configFile ? path.dirname(config.configFile) : process.cwd();
  if (!existsSync(path.join(root, "packages/web/dist/index.html"))) {
    throw new Error("packages/web/dist is missing: run `npm run build` before the e2e tests");
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "ledgerline-e2e-"));
  const logFile = path.join(dataDir, "server.log");
  // The server serves a copy of the build: a rebuild during the run (emptying packages/web/dist,
  // renaming the fingerprinted assets) must not pull the pages from under the tests.
  const webDist = path.join(dataDir, "web-dist");
  await snapshotBuild(path.join(root, "packages/web/dist"), webDist);
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const mailDir = path.join(dataDir, "mail");
  const mail = await startMailSink(mailDir, await freePort());
  keepMailSink(mail);
  const env = serverEnv({
    PORT: String(port),
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    ADMIN_PASSWORD: admin.password,
    DEMO: "1",
    LOG_LEVEL: "warn",
    WEB_DIST: webDist,
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(mail.port),
    SMTP_TLS: "none",
    SMTP_FROM: "ledgerline@example.test",
    PUBLIC_URL: baseURL,
    NOTIFY_POLL_MS: "200",
    // The webhooks spec runs its receiver on 127.0.0.1, and waits for deliveries.
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_POLL_MS: "200",
    // Low enough for the explorer's estimated counts to show on the demo's 250 countries (PGlite,
    // without statistics, expects about 75 of them to pass a "!=" filter).
    COUNT_ESTIMATE_ABOVE: "50",
  });
  // Company sign-in: a real OpenID Connect provider, started before the server (support/oidc.ts).
  Object.assign(env, await startOidcForE2e(baseURL, dataDir));
  process.env.E2E_DATA_DIR = dataDir;
  process.env.E2E_MAIL_DIR = mailDir;

  const started = Date.now();
  let pid: number | undefined;
  try {
    const first = startServer(root, env, logFile);
    pid = first.pid;
    await waitForHealth(baseURL, first);
    if (pid) await stopProcess(pid);

    for (const user of cliUsers) {
      await cli(root, env, [
        "create-user",
        ...["--username", user.username, "--name", user.name],
        ...["--email", user.email, "--password", user.password],
      ]);
      for (const { context, role } of user.roles) {
        await cli(root, env, [
          "grant-role",
          ...["--username", user.username, "--context", context, "--role", role],
        ]);
      }
    }

    const server = startServer(root, env, logFile);
    pid = server.pid;
    await waitForHealth(baseURL, server);
  } catch (error) {
    if (pid) await stopProcess(pid);
    await mail.close();
    await stopOidcForE2e();
    const log = existsSync(logFile) ? readFileSync(logFile, "utf8").slice(-4000) : "";
    if (!process.env.E2E_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`${(error as Error).message}\n--- server log ---\n${log}`, { cause: error });
  }

  process.env.E2E_BASE_URL = baseURL;
  process.env.E2E_SERVER_PID = String(pid);
  console.log(`e2e: server ready on ${baseURL} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
