import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Profile } from "@ledgerline/contract";
import type { FastifyBaseLogger, LightMyRequestResponse } from "fastify";
import { grantRoles } from "../admin/roles.repository.ts";
import { insertUser, type UserRow } from "../admin/users.repository.ts";
import { buildApp } from "../app.ts";
import { hashPassword } from "../auth/password.ts";
import { type Config, loadConfig } from "../config.ts";
import { type Database, openDatabase } from "../db/connection.ts";
import type { App } from "../http/types.ts";
import { type Prepared, prepare } from "../prepare.ts";
import { openTestDatabase } from "./test-database.ts";

export const REPO_ROOT = path.resolve(import.meta.dirname, "../../../..");
export const ADMIN_PASSWORD = "admin-password-for-tests";

export interface TestApp {
  app: App;
  /** With `url` on PostgreSQL, for other processes to open the same database. */
  database: Database & { url?: string };
  config: Config;
  prepared: Prepared;
  /** POSTs JSON (or nothing) with an optional credential: a session cookie or `Bearer <token>`. */
  post(url: string, body?: unknown, credential?: string): Promise<LightMyRequestResponse>;
  /** Signs in through /auth/login and answers the cookie header to send on. */
  login(username: string, password: string): Promise<string>;
  /** A user made directly in the database, with roles per context. */
  createUser(user: TestUserInput): Promise<UserRow>;
  /** A second server instance on the same database (PostgreSQL only), as behind a load balancer. */
  secondInstance(): Promise<{ app: App; database: Database; close(): Promise<void> }>;
  close(): Promise<void>;
}

export interface TestUserInput {
  username: string;
  password?: string;
  isadmin?: boolean;
  issuperadmin?: boolean;
  isdev?: boolean;
  roles?: { context: string; role: string }[];
}

export const TEST_USER_PASSWORD = "password-for-tests";

/**
 * The header that carries a credential: `Bearer <token>` as Authorization, anything else as the
 * cookie, sent with the Origin a browser adds to a page's calls (light-my-request's host).
 */
export function credentialHeaders(credential: string | undefined): Record<string, string> {
  if (!credential) return {};
  return credential.startsWith("Bearer ")
    ? { authorization: credential }
    : { cookie: credential, origin: "http://localhost" };
}

/** A server on a fresh database, prepared exactly as at start (migrations, model sync, seed, first admin). */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    argv?: string[];
    /** Where the server logs (tests that read the log); by default it logs nothing. */
    logger?: FastifyBaseLogger;
  } = {},
): Promise<TestApp> {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-test-"));
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      MODEL_DIR: path.join(REPO_ROOT, "model"),
      ADMIN_PASSWORD,
      DEMO: "1",
      LOG_LEVEL: "silent",
      WEB_DIST: path.join(dataDir, "no-web-build"),
      ...options.env,
    },
    options.argv ?? [],
  );
  const database = await openTestDatabase({ statementTimeoutMs: config.statementTimeoutMs });
  const prepared = await prepare(database, config);
  const app = await buildApp(
    { config, database, model: prepared.model },
    { logger: options.logger ?? false },
  );
  await app.ready();

  const post: TestApp["post"] = (url, body, credential) =>
    app.inject({
      method: "POST",
      url,
      headers: {
        ...credentialHeaders(credential),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });

  return {
    app,
    database,
    config,
    prepared,
    post,
    login: async (username, password) => {
      const res = await app.inject({
        method: "POST",
        url: "/auth/login",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({ username, password }).toString(),
      });
      if (res.statusCode !== 200)
        throw new Error(`login ${username} failed: ${res.statusCode} ${res.body}`);
      const cookie = res.cookies.find((c) => c.name === "ledgerline_session");
      if (!cookie) throw new Error("login answered no session cookie");
      return `${cookie.name}=${cookie.value}`;
    },
    createUser: async (input) => {
      const user = await insertUser(database.db, {
        username: input.username,
        name: `${input.username} name`,
        email: `${input.username}@example.com`,
        passwordHash: await hashPassword(input.password ?? TEST_USER_PASSWORD),
        isadmin: input.isadmin,
        issuperadmin: input.issuperadmin,
        isdev: input.isdev,
      });
      await grantRoles(
        database.db,
        (input.roles ?? []).map((r) => ({ userId: user.user_id, ...r })),
        "test",
      );
      return user;
    },
    secondInstance: async () => {
      if (!database.url) throw new Error("a second instance needs PostgreSQL (TEST_DATABASE_URL)");
      const other = await openDatabase({ databaseUrl: database.url, poolSize: 5 });
      const otherApp = await buildApp(
        { config, database: other, model: prepared.model },
        { logger: false },
      );
      await otherApp.ready();
      return {
        app: otherApp,
        database: other,
        close: async () => {
          await otherApp.close();
          await other.close();
        },
      };
    },
    close: async () => {
      await app.close();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}

export function profileOfResponse(res: LightMyRequestResponse): Profile {
  return res.json() as Profile;
}
