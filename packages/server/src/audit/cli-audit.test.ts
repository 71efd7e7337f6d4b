import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/connection.ts";
import { REPO_ROOT } from "../testing/test-app.ts";
import { openTestDatabase, testDatabaseKind } from "../testing/test-database.ts";

/**
 * The command line's changes of users, rights and tokens reach the audit trail, named 'cli'. Each
 * command is a process of its own; on PGlite each would open the embedded database anew (about
 * 14 s apiece), so this runs on PostgreSQL only: the audit calls are the same on both engines and
 * the API tests cover them on both.
 */

const run = promisify(execFile);
let database: Database & { url?: string };

describe.skipIf(testDatabaseKind() !== "postgres")("the command line in the audit trail", () => {
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const cli = async (...args: string[]): Promise<string> => {
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", "packages/server/src/cli.ts", ...args],
      {
        cwd: REPO_ROOT,
        env: {
          PATH: process.env.PATH,
          DATABASE_URL: database.url,
          MODEL_DIR: path.join(REPO_ROOT, "model"),
        },
      },
    );
    return stdout;
  };

  it("records users made, rights and roles given and taken, passwords reset and tokens", async () => {
    const user = ["--username", "clio"];
    await cli("create-user", ...user, "--name", "Clio", "--email", "clio@example.com", "--admin");
    await cli("grant", ...user, "--flag", "isdev");
    await cli("grant", ...user, "--flag", "isdev");
    await cli("revoke", ...user, "--flag", "isadmin");
    await cli("grant-role", ...user, "--context", "reference", "--role", "steward");
    await cli("revoke-role", ...user, "--context", "reference", "--role", "steward");
    await cli("reset-password", ...user);
    const created = await cli("create-token", ...user, "--name", "nightly", "--scope", "read");
    const tokenId = Number(/Created token (\d+)/.exec(created)?.[1]);
    await cli("revoke-token", "--id", String(tokenId));

    const { rows } = await sql<{
      kind: string;
      actor: string;
      origin: string;
      detail: Record<string, unknown>;
    }>`select kind, actor, origin, detail from app.security_events where subject = 'clio'
       order by event_id`.execute(database.db);
    expect(rows.every((r) => r.actor === "cli" && r.origin === "cli")).toBe(true);
    expect(rows.map((r) => [r.kind, r.detail])).toEqual([
      ["user-created", { name: "Clio", email: "clio@example.com" }],
      ["admin-granted", { isadmin: true }],
      ["user-updated", { isdev: true }],
      ["admin-revoked", { isadmin: false }],
      ["role-granted", { context: "reference", role: "steward" }],
      ["role-revoked", { context: "reference", role: "steward" }],
      ["password-reset", {}],
      ["token-created", expect.objectContaining({ tokenId, name: "nightly", scope: "read" })],
      ["token-revoked", { tokenId, name: "nightly" }],
    ]);
  }, 120_000);
});
