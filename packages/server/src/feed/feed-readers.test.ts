import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { ChangesPage, CreatedApiToken, FeedChange } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, REPO_ROOT, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

/** The README's two ways to follow the change feed, run as a downstream team would run them. */

const run = promisify(execFile);
const CONSUMER = path.join(REPO_ROOT, "examples/feed-consumer.mjs");
const CLI = path.join(REPO_ROOT, "packages/server/src/cli.ts");

let t: TestApp;
let url: string;
let dir: string;
let token: string;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-feed-"));
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  cookie = await t.login("steward", TEST_USER_PASSWORD);
  const res = await t.post(
    "/api/tokens/create",
    { name: "downstream", scope: "read", expiresInDays: 7 },
    cookie,
  );
  token = res.json<CreatedApiToken>().secret;
});
afterAll(async () => {
  await t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const env = () => ({ ...process.env, LEDGERLINE_URL: url, LEDGERLINE_TOKEN: token });
const lines = (stdout: string) =>
  stdout
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as FeedChange);

const saveCurrency = (code: string) =>
  t.post(
    "/api/save",
    { context: "reference", entityType: "currency", record: { code, name: code, minor_units: 2 } },
    cookie,
  );

describe("following the change feed", () => {
  it("with the example consumer: every change once, going on from the cursor kept in its file", async () => {
    const cursorFile = path.join(dir, "reference.cursor");
    const consume = () =>
      run(
        process.execPath,
        [CONSUMER, "reference", "--types", "currency", "--cursor-file", cursorFile],
        {
          env: env(),
        },
      );
    const first = lines((await consume()).stdout);
    expect(first.length).toBeGreaterThan(0);
    expect(first.every((c) => c.entityType === "currency")).toBe(true);
    expect((await fs.readFile(cursorFile, "utf8")).trim()).toBe(first.at(-1)?.cursor);

    await saveCurrency("QCA");
    await saveCurrency("QCB");
    const second = lines((await consume()).stdout);
    expect(second.map((c) => c.key.code)).toEqual(["QCA", "QCB"]);
    expect(lines((await consume()).stdout)).toEqual([]);
  });

  it("with the command line: JSON lines after a cursor, through the server with a token", async () => {
    const from = (
      await t.post("/api/changes", { context: "reference", limit: 1 }, `Bearer ${token}`)
    ).json<ChangesPage>().next as string;
    const { stdout } = await run(
      process.execPath,
      ["--import", "tsx", CLI, "changes", "--context", "reference", "--after", from],
      { env: env(), cwd: REPO_ROOT },
    );
    const changes = lines(stdout);
    expect(changes.length).toBeGreaterThan(2);
    expect(changes.map((c) => c.cursor)).not.toContain(from);
    expect(changes.at(-1)?.key.code).toBe("QCB");
  });

  it("refuses, on the command line, to run without a token", async () => {
    const failed = await run(
      process.execPath,
      ["--import", "tsx", CLI, "changes", "--context", "reference"],
      {
        env: { ...process.env, LEDGERLINE_TOKEN: "", LEDGERLINE_URL: url },
        cwd: REPO_ROOT,
      },
    ).catch((error: { stderr: string; code: number }) => error);
    expect("code" in failed && failed.code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(/LEDGERLINE_TOKEN/);
  });
});
