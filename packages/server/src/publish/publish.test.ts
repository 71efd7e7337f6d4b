import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import {
  DATA_DICTIONARY_CONTEXT,
  type PublishServerMessage,
  PublishServerMessage as ServerMessage,
} from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { findContext } from "../model/model.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { gitTarget } from "./git-target.ts";
import { publishDictionary } from "./publish.service.ts";
import {
  createShopDictionary,
  type DictionaryClient,
  dictionaryClient,
} from "./testing/dictionary.ts";
import type { WikiTarget } from "./wiki-target.ts";

let t: TestApp;
let admin: string;
let dd: DictionaryClient;
let bare: string;
let work: string;
let base: string;
const sockets: WebSocket[] = [];

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

beforeAll(async () => {
  work = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-wiki-"));
  bare = path.join(work, "wiki.git");
  execFileSync("git", ["init", "--quiet", "--bare", "-b", "main", bare]);
  t = await createTestApp({ env: { WIKI_TARGET: `git:file://${bare}` } });
  admin = await t.login("admin", ADMIN_PASSWORD);
  dd = dictionaryClient(t, admin);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  const address = t.app.server.address() as { port: number };
  base = `127.0.0.1:${address.port}`;
  await createShopDictionary(dd);
});
afterAll(async () => {
  for (const ws of sockets) ws.terminate();
  await t.close();
  await fs.rm(work, { recursive: true, force: true });
});

function commits(): number {
  const clone = path.join(work, `check-${Date.now()}`);
  execFileSync("git", ["clone", "--quiet", bare, clone]);
  return Number(git(clone, "rev-list", "--count", "HEAD"));
}

async function filesInWiki(): Promise<string[]> {
  const clone = path.join(work, `files-${Date.now()}`);
  execFileSync("git", ["clone", "--quiet", bare, clone]);
  return (await fs.readdir(clone)).filter((f) => f.endsWith(".md")).sort();
}

describe("publish to a git wiki", () => {
  it("writes every page in one commit, then makes no commit when nothing changed", async () => {
    // The repository by its name: the server's folders are nothing users need or should see.
    const message = await dd.publish();
    expect(message).toBe(
      "Published to git repository 'wiki.git': 4 pages written, 0 unchanged, 0 removed",
    );
    expect(message).not.toContain(work);
    expect(await filesInWiki()).toEqual([
      "Application-Demo.md",
      "Home.md",
      expect.stringMatching(/^Object-\d+-sales\.customer\.md$/),
      expect.stringMatching(/^Object-\d+-sales\.order_lines\.md$/),
    ]);
    expect(commits()).toBe(1);
    expect(await dd.publish()).toMatch(/0 pages written, 4 unchanged, 0 removed$/);
    expect(commits()).toBe(1);
  });

  it("deletes the page of a removed object", async () => {
    await dd.remove("dataelement", await dd.keyOf("dataelement", "customer_id"));
    await dd.remove("dataobject", await dd.keyOf("dataobject", "order_lines"));
    // Home (counts), the application (object list) and customer (no more referrer) change.
    expect(await dd.publish()).toMatch(/3 pages written, 0 unchanged, 1 removed$/);
    expect((await filesInWiki()).some((f) => f.includes("order_lines"))).toBe(false);
    expect(commits()).toBe(2);
    const runs = await t.database.db
      .selectFrom("app.publish_runs")
      .selectAll()
      .orderBy("run_id")
      .execute();
    expect(
      runs.map((r) => [
        r.outcome,
        r.pages_written,
        r.pages_unchanged,
        r.pages_removed,
        r.started_by,
      ]),
    ).toEqual([
      ["succeeded", 4, 0, 0, "admin"],
      ["succeeded", 0, 4, 0, "admin"],
      ["succeeded", 3, 0, 1, "admin"],
    ]);
  });

  it("refuses a user who cannot read the dictionary", async () => {
    await t.createUser({ username: "refonly", roles: [{ context: "reference", role: "viewer" }] });
    const cookie = await t.login("refonly", TEST_USER_PASSWORD);
    expect((await t.post("/api/publishdatadictionary", undefined, cookie)).statusCode).toBe(403);
  });

  it("needs the publish right: a dictionary viewer is refused and starts no run, an editor publishes", async () => {
    const runs = async () =>
      (await t.database.db.selectFrom("app.publish_runs").select("run_id").execute()).length;
    const before = await runs();
    await t.createUser({
      username: "ddviewer",
      roles: [{ context: DATA_DICTIONARY_CONTEXT, role: "dictionary_viewer" }],
    });
    const viewer = await t.login("ddviewer", TEST_USER_PASSWORD);
    const refused = await t.post("/api/publishdatadictionary", undefined, viewer);
    expect([refused.statusCode, refused.json().message]).toEqual([
      403,
      "You may not publish the Data Dictionary",
    ]);
    expect(await runs()).toBe(before);
    await t.createUser({
      username: "ddeditor",
      roles: [{ context: DATA_DICTIONARY_CONTEXT, role: "dictionary_editor" }],
    });
    const editor = await t.login("ddeditor", TEST_USER_PASSWORD);
    const published = await t.post("/api/publishdatadictionary", undefined, editor);
    expect(published.statusCode, published.body).toBe(200);
    expect(await runs()).toBe(before + 1);
  });

  it("keeps a slow run alive with a heartbeat every 15 seconds, however few pages are done", async () => {
    const context = findContext(t.prepared.model, DATA_DICTIONARY_CONTEXT);
    if (!context) throw new Error("no dictionary context");
    // Each page takes 16 s on this wiki: a run counts as crashed after 2 minutes of silence.
    const slowWiki: WikiTarget = {
      description: "a slow wiki",
      format: "markdown",
      indexUrl: undefined,
      listPages: async () => new Map(),
      digest: (text) => text,
      putPage: async () => void vi.advanceTimersByTime(16_000),
      deletePage: async () => undefined,
      finish: async () => undefined,
    };
    vi.useFakeTimers({ toFake: ["performance"] });
    try {
      const result = await publishDictionary(t.database.db, context, slowWiki, {
        user: "admin",
        wikiRoot: "",
      });
      expect(result).toMatchObject({ error: false, written: 3 });
    } finally {
      vi.useRealTimers();
    }
    const run = await t.database.db
      .selectFrom("app.publish_runs")
      .selectAll()
      .where("target", "=", "a slow wiki")
      .executeTakeFirstOrThrow();
    expect(run.heartbeat_at.getTime()).toBeGreaterThan(run.started_at.getTime());
  });
});

describe("WebSocket /ws/publish", () => {
  function connect(
    cookie: string,
    origin = `http://${base}`,
  ): Promise<{ ws: WebSocket; next(): Promise<PublishServerMessage>; closed: Promise<number> }> {
    const ws = new WebSocket(`ws://${base}/ws/publish`, {
      headers: { cookie, origin, "sec-fetch-site": "same-origin" },
    });
    sockets.push(ws);
    const queue: PublishServerMessage[] = [];
    const waiters: ((m: PublishServerMessage) => void)[] = [];
    ws.on("message", (data) => {
      // Every frame must match the contract's schema.
      const m = ServerMessage.parse(JSON.parse(String(data)));
      const w = waiters.shift();
      if (w) w(m);
      else queue.push(m);
    });
    const closed = new Promise<number>((resolve) => ws.on("close", (code) => resolve(code)));
    return new Promise((resolve, reject) => {
      ws.on("open", () =>
        resolve({
          ws,
          closed,
          next: () =>
            queue.length > 0
              ? Promise.resolve(queue.shift() as PublishServerMessage)
              : new Promise((r) => waiters.push(r)),
        }),
      );
      ws.on("unexpected-response", (req, res) => {
        req.destroy();
        reject(new Error(`HTTP ${res.statusCode}`));
      });
      ws.on("error", reject);
    });
  }

  async function until(
    client: { next(): Promise<PublishServerMessage> },
    type: PublishServerMessage["type"],
  ): Promise<PublishServerMessage> {
    for (;;) {
      const m = await client.next();
      if (m.type === type) return m;
    }
  }

  it("answers status, publishes, and tells every connected client about busy and the result", async () => {
    const a = await connect(admin);
    const b = await connect(admin);
    a.ws.send("status");
    expect(await a.next()).toEqual({ type: "statusResponse", busy: false });
    a.ws.send("publish");
    expect(await until(b, "statusResponse")).toEqual({ type: "statusResponse", busy: true });
    const result = await until(b, "publishResponse");
    expect(result).toMatchObject({
      error: false,
      message: expect.stringMatching(/^Published to git repository/),
    });
    expect(await until(a, "publishResponse")).toEqual(result);
    expect(await until(b, "statusResponse")).toEqual({ type: "statusResponse", busy: false });
    a.ws.close();
    b.ws.close();
  });

  it("answers 403 instead of a socket to a user who cannot read the dictionary", async () => {
    await t.createUser({ username: "refonly2", roles: [{ context: "reference", role: "viewer" }] });
    const cookie = await t.login("refonly2", TEST_USER_PASSWORD);
    await expect(connect(cookie)).rejects.toThrow("HTTP 403");
  });

  it("answers 403 to a dictionary viewer, who may read but not publish, and a socket to an editor", async () => {
    await t.createUser({
      username: "ddviewer2",
      roles: [{ context: DATA_DICTIONARY_CONTEXT, role: "dictionary_viewer" }],
    });
    await expect(connect(await t.login("ddviewer2", TEST_USER_PASSWORD))).rejects.toThrow(
      "HTTP 403",
    );
    await t.createUser({
      username: "ddeditor2",
      roles: [{ context: DATA_DICTIONARY_CONTEXT, role: "dictionary_editor" }],
    });
    const editor = await connect(await t.login("ddeditor2", TEST_USER_PASSWORD));
    editor.ws.send("status");
    expect(await editor.next()).toEqual({ type: "statusResponse", busy: false });
    editor.ws.close();
  });

  it("refuses a publish while another instance publishes", async () => {
    const running = await t.database.db
      .insertInto("app.publish_runs")
      .values({ started_by: "elsewhere", target: "x" })
      .returning("run_id")
      .executeTakeFirstOrThrow();
    const a = await connect(admin);
    a.ws.send("status");
    expect(await a.next()).toEqual({ type: "statusResponse", busy: true });
    a.ws.send("publish");
    expect(await until(a, "publishResponse")).toEqual({
      type: "publishResponse",
      message: "A publish is already in progress; try again when it has finished",
      error: true,
    });
    expect((await t.post("/api/publishdatadictionary", undefined, admin)).statusCode).toBe(409);
    await t.database.db
      .updateTable("app.publish_runs")
      .set({ outcome: "failed" })
      .where("run_id", "=", running.run_id)
      .execute();
    a.ws.close();
  });

  it("closes on any other message and on oversized frames", async () => {
    const a = await connect(admin);
    a.ws.send("delete everything");
    expect(await a.closed).toBe(1008);
    const b = await connect(admin);
    b.ws.send("x".repeat(10_000));
    expect(await b.closed).toBe(1009);
  });

  it("closes a socket that sends more than 10 frames in 10 seconds, and reads none after", async () => {
    const a = await connect(admin);
    const answers: PublishServerMessage[] = [];
    a.ws.on("message", (data) => answers.push(JSON.parse(String(data))));
    const reason = new Promise<string>((resolve) =>
      a.ws.on("close", (_code, text) => resolve(String(text))),
    );
    for (let i = 0; i < 30; i += 1) a.ws.send("status");
    expect(await a.closed).toBe(1008);
    expect(await reason).toBe("too many messages: at most 10 in 10 seconds");
    expect(answers.length).toBeLessThanOrEqual(10);
    expect(answers.every((m) => m.type === "statusResponse")).toBe(true);
    // The limit is the connection's: another one is answered.
    const b = await connect(admin);
    b.ws.send("status");
    expect(await until(b, "statusResponse")).toEqual({ type: "statusResponse", busy: false });
    b.ws.close();
  });

  it("refuses a connection without a session or from a foreign origin", async () => {
    await expect(connect("ledgerline_session=nope")).rejects.toThrow("HTTP 401");
    await expect(connect(admin, "https://evil.example")).rejects.toThrow("HTTP 403");
  });
});

// Last: these runs announce 'busy' without the hub, which the socket tests above must not hear.
describe("publish failures", () => {
  it("says why a publish failed without git's text, server paths or credentials", async () => {
    const context = findContext(t.prepared.model, DATA_DICTIONARY_CONTEXT);
    if (!context) throw new Error("no dictionary context");
    const publish = (target: WikiTarget) =>
      publishDictionary(t.database.db, context, target, { user: "admin", wikiRoot: "" });
    // Nothing listens on port 9: git's own message names the address, the clone folder and more.
    const unreachable = await publish(
      gitTarget("http://deploy:s3cr3t@127.0.0.1:9/team/wiki.git", path.join(work, "data")),
    );
    expect(unreachable).toMatchObject({
      error: true,
      message:
        "Publish failed: the git repository http://127.0.0.1:9/team/wiki.git could not be cloned",
    });
    const missing = await publish(gitTarget(`file://${work}/no-such.git`, work));
    expect(missing.message).toBe(
      "Publish failed: the git repository 'no-such.git' could not be cloned",
    );
    // Any other failure is the server's: the user learns that much, the log the rest.
    const broken = await publish({
      description: "a broken wiki",
      format: "markdown",
      indexUrl: undefined,
      listPages: async () => {
        throw new Error("EACCES: permission denied, open '/srv/ledgerline/wiki/Home.md'");
      },
      digest: (text) => text,
      putPage: async () => undefined,
      deletePage: async () => undefined,
      finish: async () => undefined,
    });
    expect(broken.message).toBe(
      "Publish failed: a server error stopped it; the server log has the details",
    );
    const runs = await t.database.db
      .selectFrom("app.publish_runs")
      .select("message")
      .where("outcome", "=", "failed")
      .where("message", "is not", null)
      .execute();
    expect(runs).toHaveLength(3);
    for (const { message } of runs) {
      expect(message).not.toMatch(/s3cr3t|deploy|\/srv\/|EACCES/);
      expect(message).not.toContain(work);
    }
  });
});
