import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { App } from "./http/types.ts";
import { keyByName, listRecords } from "./testing/records-client.ts";
import { startServerProcess } from "./testing/server-process.ts";
import { createSourceDatabase } from "./testing/source-database.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  credentialHeaders,
  REPO_ROOT,
  TEST_USER_PASSWORD,
  type TestApp,
} from "./testing/test-app.ts";
import { testDatabaseKind } from "./testing/test-database.ts";
import { upload, workbookOf } from "./testing/xlsx-files.ts";

/** Two server instances on one PostgreSQL database, as behind a load balancer. */
describe.skipIf(testDatabaseKind() !== "postgres")("several instances on one database", () => {
  let a: TestApp;
  let b: Awaited<ReturnType<TestApp["secondInstance"]>>;
  let cookie: string;
  beforeAll(async () => {
    a = await createTestApp();
    b = await a.secondInstance();
    cookie = await a.login("admin", ADMIN_PASSWORD);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  const ping = (app: App, c: string) =>
    app.inject({
      method: "POST",
      url: "/api/ping",
      headers: { cookie: c, "content-type": "application/json", "sec-fetch-site": "same-origin" },
      payload: "{}",
    });

  it("a session made on one instance is valid on the other, and a logout on one ends it on both", async () => {
    const session = await a.login("admin", ADMIN_PASSWORD);
    const list = (app: App) =>
      app.inject({
        method: "POST",
        url: "/api/entity",
        headers: {
          cookie: session,
          "content-type": "application/json",
          "sec-fetch-site": "same-origin",
        },
        payload: JSON.stringify({ context: "reference", entityType: "currency", pageSize: 1 }),
      });
    expect((await ping(b.app, session)).statusCode).toBe(200);
    // Twice: the second list call on b reuses the session b read for the first.
    expect((await list(b.app)).statusCode).toBe(200);
    expect((await list(b.app)).statusCode).toBe(200);
    await a.post("/auth/logout", undefined, session);
    expect((await list(b.app)).statusCode).toBe(401);
    expect((await ping(a.app, session)).statusCode).toBe(401);
    expect((await ping(b.app, session)).statusCode).toBe(401);
  });

  it("a role removed, a right taken away, a token revoked or a user removed on one instance is refused by the other's next call", async () => {
    await a.createUser({ username: "moving", roles: [{ context: "reference", role: "viewer" }] });
    const session = await a.login("moving", TEST_USER_PASSWORD);
    const created = await b.app.inject({
      method: "POST",
      url: "/api/tokens/create",
      headers: {
        cookie: session,
        "content-type": "application/json",
        "sec-fetch-site": "same-origin",
      },
      payload: JSON.stringify({ name: "pipeline", scope: "read", expiresInDays: 1 }),
    });
    expect(created.statusCode, created.body).toBe(200);
    const { secret, token } = created.json() as { secret: string; token: { tokenId: number } };
    const bearer = `Bearer ${secret}`;
    const call = (url: string, credential: string, body: unknown = {}) =>
      b.app.inject({
        method: "POST",
        url,
        headers: { ...credentialHeaders(credential), "content-type": "application/json" },
        payload: JSON.stringify(body),
      });
    const list = (credential: string) =>
      call("/api/entity", credential, {
        context: "reference",
        entityType: "currency",
        pageSize: 1,
      });
    // Each check on b right after a's answer: b must not answer from anything it read before.
    expect((await list(session)).statusCode).toBe(200);
    expect((await list(bearer)).statusCode).toBe(200);
    const role = { context: "reference", username: "moving", role: "viewer" };
    expect((await a.post("/api/removerole", role, cookie)).statusCode).toBe(200);
    expect((await list(session)).statusCode).toBe(403);
    expect((await list(bearer)).statusCode).toBe(403);
    expect((await a.post("/api/addrole", role, cookie)).statusCode).toBe(200);
    expect((await list(session)).statusCode).toBe(200);

    const user = { username: "moving", name: "Moving", email: "moving@example.com" };
    expect((await a.post("/api/updateuser", { ...user, isadmin: true }, cookie)).statusCode).toBe(
      200,
    );
    expect((await call("/api/getusers", session)).statusCode).toBe(200);
    expect((await a.post("/api/updateuser", { ...user, isadmin: false }, cookie)).statusCode).toBe(
      200,
    );
    expect((await call("/api/getusers", session)).statusCode).toBe(403);

    const revoked = await a.post("/api/tokens/revoke", { tokenId: token.tokenId }, session);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect((await list(bearer)).statusCode).toBe(401);
    expect((await list(session)).statusCode).toBe(200);
    expect((await a.post("/api/removeuser", { username: "moving" }, cookie)).statusCode).toBe(200);
    expect((await list(session)).statusCode).toBe(401);
  });

  it("a publish started on one instance is seen as busy on the other's WebSocket", async () => {
    await b.app.listen({ port: 0, host: "127.0.0.1" });
    const { port } = b.app.server.address() as { port: number };
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/publish`, {
      headers: { cookie, origin: `http://127.0.0.1:${port}` },
    });
    const messages: Record<string, unknown>[] = [];
    ws.on("message", (d) => messages.push(JSON.parse(String(d))));
    await new Promise((resolve) => ws.on("open", resolve));
    const published = await a.post("/api/publishdatadictionary", undefined, cookie);
    expect(published.statusCode, published.body).toBe(200);
    await expect
      .poll(() => messages.filter((m) => m.type === "statusResponse").map((m) => m.busy), {
        timeout: 5000,
      })
      .toEqual([true, false]);
    ws.terminate();
  });

  it("two uploads of one type at the same time both land, one after the other, exactly once", async () => {
    const rows = (codes: string[], name: string) => [
      ["Code", "Name", "Minor units", "Active"],
      ...codes.map((c) => [c, `${name} ${c}`, 2, true]),
    ];
    const first = await workbookOf("Currencies", rows(["XQA", "XQB", "XQC"], "First"));
    const second = await workbookOf("Currencies", rows(["XQD", "XQE"], "Second"));
    const [r1, r2] = await Promise.all([
      upload(a, cookie, first, {
        layout: "currencies",
        deleteMissing: false,
        approveEverything: true,
      }),
      upload({ ...a, app: b.app }, cookie, second, {
        layout: "currencies",
        deleteMissing: false,
        approveEverything: true,
      }),
    ]);
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    expect(r1.body).toMatch(/3 added/);
    expect(r2.body).toMatch(/2 added/);
    const made = await listRecords(a, cookie, {
      entityType: "currency",
      rowConstraints: [{ attribute: "code", operator: "StartsWith", values: ["XQ"] }],
      pageSize: 0,
    });
    expect(made.data.map((r) => r.keyAttrValues.code).sort()).toEqual([
      "XQA",
      "XQB",
      "XQC",
      "XQD",
      "XQE",
    ]);
    const { rows: events } = await sql<{
      n: number;
    }>`select count(*)::int as n from app.events e join ctx_reference.currency c on c.entity_key_id = e.entity_key_id
      where e.entity_type = 'currency' and c.code like 'XQ%'`.execute(a.database.db);
    expect(events[0].n).toBe(5);
  });

  it("two server processes run each firing of a schedule exactly once", async () => {
    const DD = "Data Dictionary";
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-schedule-"));
    const connectionsDir = path.join(dir, "connections");
    await fs.mkdir(connectionsDir);
    const source = await createSourceDatabase([
      "create table public.orders (id int primary key, placed date)",
      "create table public.customers (id int primary key, name text)",
    ]);
    const servers: Awaited<ReturnType<typeof startServerProcess>>[] = [];
    try {
      await fs.writeFile(
        path.join(connectionsDir, "src.conf"),
        `[source]\nhost=${source.host}\nport=${source.port}\ndbname=${source.name}\nuser=${source.user}\n`,
      );
      const keyOf = (entityType: string, name: string) =>
        keyByName(a, cookie, { context: DD, entityType }, name);
      const save = async (entityType: string, record: object) => {
        const res = await a.post("/api/save", { context: DD, entityType, record }, cookie);
        expect(res.statusCode, res.body).toBe(200);
        return res.json().entityKeyID as number;
      };
      const sourceKey = await save("metadatasource", {
        application: await keyOf("application", "Demo"),
        applicationaspect: await keyOf("applicationaspect", "Operational"),
        systemenvironment: await save("systemenvironment", {
          name: "Scheduled source",
          description: "Imported every minute",
          technology: "postgres",
          connectionfile: "src.conf",
        }),
        name: "Every minute",
        description: "Scheduled by both processes",
        importfrequency: "* * * * *",
        enableschedule: true,
      });

      const started = Date.now();
      const env = (name: string) => ({
        DATABASE_URL: a.database.url as string,
        DATA_DIR: path.join(dir, name),
        CONNECTIONS_DIR: connectionsDir,
        ADMIN_PASSWORD,
        DEMO: "1",
        MODEL_DIR: path.join(REPO_ROOT, "model"),
      });
      servers.push(
        ...(await Promise.all([startServerProcess(env("one")), startServerProcess(env("two"))])),
      );
      const claimsOf = () =>
        a.database.db
          .selectFrom("app.schedule_claims")
          .select(["scheduled_for", "claimed_by"])
          .where("metadata_source_id", "=", sourceKey)
          .orderBy("scheduled_for")
          .execute();
      // Both are up: let a firing come that both of them wake for (imports run at most once a
      // minute, so one: more would make this test minutes long).
      const bothUp = Date.now();
      await expect
        .poll(
          async () => (await claimsOf()).filter((c) => c.scheduled_for.getTime() > bothUp).length,
          { timeout: 75_000, interval: 250 },
        )
        .toBeGreaterThanOrEqual(1);
      await Promise.all(servers.map((s) => s.stop()));
      const stopped = Date.now();

      const claims = await claimsOf();
      const runs = await a.database.db
        .selectFrom("app.import_runs")
        .select(["outcome", "started_by", "counts"])
        .orderBy("run_id")
        .where("metadata_source_id", "=", sourceKey)
        .where("trigger", "=", "schedule")
        .execute();
      const firings = Math.floor(stopped / 60_000) - Math.floor(started / 60_000);
      expect(claims.length).toBeGreaterThanOrEqual(1);
      // One run per claimed firing, and never more runs than the schedule fired.
      expect(runs).toHaveLength(claims.length);
      expect(runs.length).toBeLessThanOrEqual(firings);
      for (const claim of claims) expect(claim.scheduled_for.getTime() % 60_000).toBe(0);
      const pids = new Set(servers.map((s) => String(s.child.pid)));
      for (const claim of claims) expect(pids).toContain(claim.claimed_by.split("-")[0]);
      // Each run is proposed by the user who saved the source with its schedule on.
      expect(new Set(runs.map((r) => `${r.outcome} ${r.started_by}`))).toEqual(
        new Set(["succeeded admin"]),
      );
      // Every run finds the same two tables and four columns pending; the later runs keep the
      // first run's changes, so the history holds them once.
      const { rows } = await sql<{ n: number }>`
        select count(*)::int as n from app.events where source = ${`import:${sourceKey}`}`.execute(
        a.database.db,
      );
      expect(runs.map((r) => (r.counts as { pending: number }).pending)).toEqual(runs.map(() => 6));
      expect(rows[0].n).toBe(6);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await source.drop();
      await fs.rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
