import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { CreatedApiToken } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, REPO_ROOT, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

/** examples/pipeline.mjs, the README's pipeline job, run as a job would run it against a real server. */

const run = promisify(execFile);
const SCRIPT = path.join(REPO_ROOT, "examples/pipeline.mjs");

let t: TestApp;
let url: string;
let dir: string;
let token: string;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: "127.0.0.1" });
  dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-pipeline-"));
  await t.createUser({ username: "etl", roles: [{ context: "reference", role: "steward" }] });
  const res = await t.post(
    "/api/tokens/create",
    { name: "nightly load", scope: "write", expiresInDays: 7 },
    await t.login("etl", TEST_USER_PASSWORD),
  );
  token = res.json<CreatedApiToken>().secret;
});
afterAll(async () => {
  await t.close();
  await fs.rm(dir, { recursive: true, force: true });
});

const job = (...args: string[]) =>
  run(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, LEDGERLINE_URL: url, LEDGERLINE_TOKEN: token },
  });

describe("the pipeline example", () => {
  it("uploads a workbook through a layout with a token", async () => {
    const { stdout } = await job(
      "upload",
      "reference",
      "currencies",
      path.join(REPO_ROOT, "examples/currencies.xlsx"),
    );
    expect(stdout).toMatch(
      /^currencies\.xlsx: \d+ rows read - \d+ added, \d+ changed, \d+ missing/,
    );
  });

  it("reads a type page by page and exports it", async () => {
    const count = (
      await t.post(
        "/api/entity",
        { context: "reference", entityType: "country" },
        `Bearer ${token}`,
      )
    ).json().querySize;
    const { stdout } = await job("read", "reference", "country");
    const lines = stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(count);
    expect(lines[0]).toHaveProperty("iso2");
    const file = path.join(dir, "countries.xlsx");
    await job("export", "reference", "country", file);
    const bytes = await fs.readFile(file);
    expect(bytes.subarray(0, 2).toString()).toBe("PK");
  });

  it("fails plainly without a valid token", async () => {
    const failed = run(process.execPath, [SCRIPT, "read", "reference", "country"], {
      env: { ...process.env, LEDGERLINE_URL: url, LEDGERLINE_TOKEN: "llt_wrong" },
    });
    await expect(failed).rejects.toMatchObject({ stderr: expect.stringContaining("401") });
  });
});
