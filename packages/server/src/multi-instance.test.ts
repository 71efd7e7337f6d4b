import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import type { App } from "./http/types.ts";
import { listRecords } from "./testing/records-client.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "./testing/test-app.ts";
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
      headers: { cookie: c, "content-type": "application/json" },
      payload: "{}",
    });

  it("a session made on one instance is valid on the other, and a logout on one ends it on both", async () => {
    const session = await a.login("admin", ADMIN_PASSWORD);
    expect((await ping(b.app, session)).statusCode).toBe(200);
    await a.post("/auth/logout", undefined, session);
    expect((await ping(a.app, session)).statusCode).toBe(401);
    expect((await ping(b.app, session)).statusCode).toBe(401);
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
});
