import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ContextModel } from "../model/model.ts";
import { type GitHttpServer, startGitHttpServer } from "../testing/git-http-server.ts";
import type { TestApp } from "../testing/test-app.ts";
import { gitTarget, remoteAccess } from "./git-target.ts";
import { publishDictionary } from "./publish.service.ts";
import { appWithShopDictionary } from "./testing/dictionary.ts";

// A wiki behind Basic authentication, its address carrying the user name and token: git must be
// given them, and no command line or file the server writes may hold the token.
const USER = "deploy-bot";
const TOKEN = "s3cr3t-token";

let t: TestApp;
let context: ContextModel;
let work: string;
let server: GitHttpServer;
let argvLog: string;
let path0: string | undefined;

// The test's own git, by its path: the server's is found on the PATH, behind the wrapper.
const realGit = execFileSync("sh", ["-c", "command -v git"], { encoding: "utf8" }).trim();
const git = (cwd: string, ...args: string[]) =>
  execFileSync(
    realGit,
    ["-c", "user.name=Someone", "-c", "user.email=someone@localhost", ...args],
    {
      cwd,
      encoding: "utf8",
    },
  ).trim();

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-git-credentials-"));
  // The wiki: a bare repository with a first commit on main.
  await fs.mkdir(path.join(work, "served"));
  git(work, "init", "--quiet", "--bare", "-b", "main", path.join(work, "served", "wiki.git"));
  git(work, "clone", "--quiet", path.join(work, "served", "wiki.git"), "seed");
  await fs.writeFile(path.join(work, "seed", "Home.md"), "The team's wiki\n");
  git(path.join(work, "seed"), "add", "--all");
  git(path.join(work, "seed"), "commit", "--quiet", "-m", "Home");
  git(path.join(work, "seed"), "push", "--quiet", "origin", "HEAD:main");
  server = await startGitHttpServer(path.join(work, "served"), USER, TOKEN);
  // Every git the server runs, found first on the PATH, writes down its command line.
  argvLog = path.join(work, "argv.log");
  const wrapper = path.join(work, "bin");
  await fs.mkdir(wrapper);
  await fs.writeFile(
    path.join(wrapper, "git"),
    `#!/bin/sh\nprintf '%s\\n' "$*" >> '${argvLog}'\nexec '${realGit}' "$@"\n`,
    { mode: 0o755 },
  );
  path0 = process.env.PATH;
  process.env.PATH = `${wrapper}:${path0}`;
  // A setting the server's environment gives git, as a company's proxy or authority would be.
  Object.assign(process.env, {
    GIT_CONFIG_COUNT: "1",
    GIT_CONFIG_KEY_0: "http.extraHeader",
    GIT_CONFIG_VALUE_0: "X-Company: kept",
  });
  ({ t, context } = await appWithShopDictionary());
});
afterAll(async () => {
  process.env.PATH = path0;
  for (const name of ["GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0"])
    delete process.env[name];
  await t.close();
  await server.close();
  await fs.rm(work, { recursive: true, force: true });
});

describe("a git wiki whose address carries credentials", () => {
  it("is cloned, fetched and pushed with them, never on git's command line or in the clone", async () => {
    const dataDir = path.join(work, "data");
    const location = `${server.url.replace("://", `://${USER}:${TOKEN}@`)}/wiki.git`;
    const publish = async () => {
      const result = await publishDictionary(t.database.db, context, gitTarget(location, dataDir), {
        user: "admin",
        wikiRoot: "",
      });
      expect(result.error, result.message).toBe(false);
    };
    await publish();
    const served = path.join(work, "served", "wiki.git");
    expect(git(served, "rev-list", "--count", "main")).toBe("2");
    expect(git(served, "ls-tree", "--name-only", "main")).toContain("Home.md");

    // A clone made when the address, token included, was its origin: set anew at the next publish.
    const [clone] = await fs.readdir(path.join(dataDir, "wiki-clones"));
    const cloneDir = path.join(dataDir, "wiki-clones", clone);
    git(cloneDir, "remote", "set-url", "origin", location);
    // Someone removes a page in the wiki: the next publish writes it again and pushes.
    const seed = path.join(work, "seed");
    git(seed, "pull", "--quiet", "origin", "main");
    const page = (await fs.readdir(seed)).find((f) => f.endsWith(".md") && f !== "Home.md");
    if (!page) throw new Error("no published page");
    git(seed, "rm", "--quiet", page);
    git(seed, "commit", "--quiet", "-m", "Removed by hand");
    git(seed, "push", "--quiet", "origin", "HEAD:main");
    await publish();
    expect(git(served, "rev-list", "--count", "main")).toBe("4");
    expect(git(served, "ls-tree", "--name-only", "main")).toContain(page);

    const config = await fs.readFile(path.join(cloneDir, ".git", "config"), "utf8");
    expect(config).toContain(`${server.url}/wiki.git`);
    expect(config).not.toContain(TOKEN);
    const commandLines = await fs.readFile(argvLog, "utf8");
    expect(commandLines).toContain("push");
    expect(commandLines).not.toContain(TOKEN);
    const basic = `Basic ${Buffer.from(`${USER}:${TOKEN}`).toString("base64")}`;
    expect(server.requests.length).toBeGreaterThan(0);
    expect(new Set(server.requests.map((h) => h.authorization))).toEqual(new Set([basic]));
    // The setting the server's environment gave git was sent beside the credentials.
    expect(new Set(server.requests.map((h) => h["x-company"]))).toEqual(new Set(["kept"]));
  });

  it("leaves an address without credentials, and one that is no http(s) URL, as it is", () => {
    expect(remoteAccess("https://example.com/team/wiki.git")).toEqual({
      address: "https://example.com/team/wiki.git",
      env: {},
    });
    expect(remoteAccess("git@example.com:team/wiki.git")).toEqual({
      address: "git@example.com:team/wiki.git",
      env: {},
    });
    const header = `Authorization: Basic ${Buffer.from("oauth2:p@ss").toString("base64")}`;
    expect(remoteAccess("https://oauth2:p%40ss@example.com/w.git?x=1", {})).toEqual({
      address: "https://example.com/w.git?x=1",
      env: {
        GIT_CONFIG_COUNT: "1",
        GIT_CONFIG_KEY_0: "http.https://example.com/.extraHeader",
        GIT_CONFIG_VALUE_0: header,
      },
    });
    // Settings the server's environment already gives git keep their places.
    const company = { GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "http.sslCAInfo" };
    expect(remoteAccess("https://oauth2:p%40ss@example.com/w.git", company).env).toEqual({
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_1: "http.https://example.com/.extraHeader",
      GIT_CONFIG_VALUE_1: header,
    });
  });
});
