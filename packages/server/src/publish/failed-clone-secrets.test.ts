import net from "node:net";
import { Writable } from "node:stream";
import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createLogger } from "../logger.ts";
import { findContext } from "../model/model.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { mediawikiTarget } from "./mediawiki-target.ts";
import { publishDictionary } from "./publish.service.ts";

// A wiki remote whose address carries a token, on a port where nothing listens: git fails, and its
// texts (the command line, "unable to access '<url>'") would carry the token wherever they went.
const USER = "deploy-bot";
const SECRET = "s3cr3t-token";

let t: TestApp;
let admin: string;
let base: string;
let port: number;
const logged: string[] = [];

async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

beforeAll(async () => {
  port = await closedPort();
  const log = new Writable({
    write(chunk, _encoding, done) {
      logged.push(String(chunk));
      done();
    },
  });
  t = await createTestApp({
    env: { WIKI_TARGET: `git:https://${USER}:${SECRET}@127.0.0.1:${port}/team/wiki.git` },
    logger: createLogger({ logLevel: "debug", logFormat: "json" }, log),
  });
  admin = await t.login("admin", ADMIN_PASSWORD);
  await t.app.listen({ port: 0, host: "127.0.0.1" });
  base = `127.0.0.1:${(t.app.server.address() as net.AddressInfo).port}`;
});
afterAll(() => t.close());

/** Sends 'publish' on /ws/publish and answers the raw text of the publishResponse frame. */
async function publishOverSocket(): Promise<string> {
  const ws = new WebSocket(`ws://${base}/ws/publish`, {
    headers: { cookie: admin, origin: `http://${base}`, "sec-fetch-site": "same-origin" },
  });
  try {
    await new Promise((resolve, reject) => {
      ws.on("open", resolve);
      ws.on("error", reject);
    });
    const answer = new Promise<string>((resolve) =>
      ws.on("message", (data) => {
        const text = String(data);
        if (JSON.parse(text).type === "publishResponse") resolve(text);
      }),
    );
    ws.send("publish");
    return await answer;
  } finally {
    ws.terminate();
  }
}

describe("a wiki remote with a token in its address that cannot be cloned", () => {
  it("keeps the token out of the answer, the broadcast, the run record and the log", async () => {
    const failed = `Publish failed: the git repository https://127.0.0.1:${port}/team/wiki.git could not be cloned`;
    const res = await t.post("/api/publishdatadictionary", undefined, admin);
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 502,
      body: { message: failed },
    });
    const frame = await publishOverSocket();
    expect(JSON.parse(frame)).toEqual({ type: "publishResponse", message: failed, error: true });
    const runs = await t.database.db.selectFrom("app.publish_runs").selectAll().execute();
    expect(runs.map((r) => [r.outcome, r.message])).toEqual([
      ["failed", failed],
      ["failed", failed],
    ]);

    const log = logged.join("");
    // The log keeps what an operator needs: the failure, and git's own words for it.
    expect(log).toContain("publish failed");
    expect(log).toMatch(/Failed to connect|Could not connect|Couldn't connect/i);
    for (const [where, text] of [
      ["answer", res.body],
      ["broadcast", frame],
      ["run records", JSON.stringify(runs)],
      ["log", log],
    ]) {
      expect(text, where).not.toContain(SECRET);
      expect(text, where).not.toContain(USER);
    }
  });
});

describe("a MediaWiki address with a password in it", () => {
  it("keeps the password out of the run record and the log", async () => {
    const context = findContext(t.prepared.model, DATA_DICTIONARY_CONTEXT);
    if (!context) throw new Error("no dictionary context");
    const lines: string[] = [];
    const log = createLogger(
      { logLevel: "debug", logFormat: "json" },
      new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    const target = mediawikiTarget({
      apiUrl: `http://${USER}:${SECRET}@127.0.0.1:${port}/w/api.php`,
      root: "Data Dictionary",
      user: "Bot@publish",
      password: "bot-password",
    });
    const result = await publishDictionary(t.database.db, context, target, {
      user: "admin",
      wikiRoot: "Data Dictionary",
      log,
    });
    expect(result.message).toBe(
      `Publish failed: the wiki at http://127.0.0.1:${port}/w/api.php cannot be reached`,
    );
    const logged = lines.join("");
    // fetch's own words stay, without the address's credentials.
    expect(logged).toContain("Request cannot be constructed from a URL that includes credentials");
    const runs = await t.database.db.selectFrom("app.publish_runs").selectAll().execute();
    for (const text of [logged, JSON.stringify(runs)]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain(USER);
    }
  });
});
