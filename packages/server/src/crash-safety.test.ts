import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "./db/connection.ts";
import { type ServerProcess, signIn, startServerProcess } from "./testing/server-process.ts";
import { createSourceDatabase, type SourceDatabase } from "./testing/source-database.ts";
import { ADMIN_PASSWORD, REPO_ROOT } from "./testing/test-app.ts";
import { openTestDatabase, testDatabaseKind } from "./testing/test-database.ts";
import { startWebhookReceiver } from "./testing/webhook-receiver.ts";
import { uploadForm, workbookOf } from "./testing/xlsx-files.ts";

/**
 * The server is killed with SIGKILL in the middle of a large upload, an approval of many events, a
 * metadata import and a run of webhook deliveries; after a restart nothing partial is visible,
 * every webhook event arrives, and the server starts cleanly.
 */
describe.skipIf(testDatabaseKind() !== "postgres")("crash safety", { timeout: 120_000 }, () => {
  let database: Database & { url?: string };
  let dataDir: string;
  let server: ServerProcess;
  let cookie: string;
  let env: Record<string, string>;

  const db = () => database.db as unknown as Kysely<unknown>;
  const post = (url: string, body: object) =>
    fetch(`${server.url}${url}`, {
      method: "POST",
      headers: {
        cookie,
        "content-type": "application/json",
        origin: server.url,
        "sec-fetch-site": "same-origin",
      },
      body: JSON.stringify(body),
    });
  async function count(query: ReturnType<typeof sql<{ n: number }>>): Promise<number> {
    return (await query.execute(db())).rows[0].n;
  }
  async function until(check: () => Promise<boolean>, what: string): Promise<void> {
    const deadline = Date.now() + 30_000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  }
  async function restart(): Promise<void> {
    server = await startServerProcess(env);
    cookie = await signIn(server.url, "admin", ADMIN_PASSWORD);
  }

  beforeAll(async () => {
    database = await openTestDatabase();
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-crash-"));
    await fs.mkdir(path.join(dataDir, "connections"));
    env = {
      DATABASE_URL: database.url as string,
      DATA_DIR: dataDir,
      ADMIN_PASSWORD,
      DEMO: "1",
      MODEL_DIR: path.join(REPO_ROOT, "model"),
      WEBHOOK_ALLOW_PRIVATE: "true",
      WEBHOOK_TIMEOUT_SECONDS: "1",
      WEBHOOK_POLL_MS: "100",
    };
    await restart();
  });
  afterAll(async () => {
    await server?.stop();
    await database?.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  it("a large upload killed halfway leaves no record and no event", async () => {
    const rows = [["Code", "Name", "Minor units", "Active"]];
    for (let i = 0; i < 30_000; i++)
      rows.push([`Q${String(i).padStart(5, "0")}`, `Crash currency ${i}`, "2", "true"]);
    const file = await workbookOf("Currencies", rows);
    const before = await count(sql`select count(*)::int as n from ctx_reference.currency`);
    const events = await count(sql`select count(*)::int as n from app.events`);
    const form = uploadForm(file, {
      layout: "currencies",
      deleteMissing: false,
      approveEverything: true,
      fileName: "big.xlsx",
    });
    const sent = fetch(`${server.url}/api/upload`, {
      method: "POST",
      headers: { cookie, origin: server.url, "sec-fetch-site": "same-origin" },
      body: form,
    }).catch(() => undefined);
    await until(
      async () =>
        (await count(sql`select count(*)::int as n from app.uploads where outcome = 'running'`)) >
        0,
      "the upload to start",
    );
    await new Promise((r) => setTimeout(r, 400));
    await server.stop("SIGKILL");
    await sent;
    await restart();
    expect(await count(sql`select count(*)::int as n from ctx_reference.currency`)).toBe(before);
    expect(await count(sql`select count(*)::int as n from app.events`)).toBe(events);
  });

  it("an approval of many events killed halfway applies all of them or none", async () => {
    const n = 20_000;
    await sql`insert into ctx_reference.currency (code, name, created_by, updated_by)
      select 'W' || lpad(i::text, 5, '0'), 'Before', 'seed', 'seed' from generate_series(1, ${n}) i`.execute(
      db(),
    );
    await sql`insert into app.events (context, entity_type, entity_key_id, action, status, old_values, new_values, base_version, source, created_by)
      select 'reference', 'currency', entity_key_id, 'Change', 'pending', '{"name":"Before"}', '{"name":"After"}', version, 'upload:424242', 'seed-bot'
      from ctx_reference.currency where code like 'W%'`.execute(db());
    const sent = post("/api/approve", {
      context: "reference",
      entityType: "currency",
      uploadId: 424242,
    }).catch(() => undefined);
    await until(
      async () =>
        (await count(
          sql`select count(*)::int as n from pg_stat_activity where query like '%app.events%' and state = 'active' and pid <> pg_backend_pid()`,
        )) > 0,
      "the approval to run",
    );
    await server.stop("SIGKILL");
    await sent;
    await restart();
    const approved = await count(
      sql`select count(*)::int as n from app.events where source = 'upload:424242' and status = 'approved'`,
    );
    const after = await count(
      sql`select count(*)::int as n from ctx_reference.currency where code like 'W%' and name = 'After'`,
    );
    expect([0, n]).toContain(approved);
    expect(after).toBe(approved);
  });

  it("a metadata import killed halfway leaves no data object and no event", async () => {
    const tables = Array.from(
      { length: 400 },
      (_, i) =>
        `create table t${i} (${Array.from({ length: 12 }, (_, c) => `c${c} text`).join(", ")})`,
    );
    const source: SourceDatabase = await createSourceDatabase(tables);
    try {
      await fs.writeFile(
        path.join(dataDir, "connections", "crash.conf"),
        `[crash]\nhost=${source.host}\nport=${source.port}\ndbname=${source.name}\nuser=${source.user}\n`,
      );
      const key = async (type: string) =>
        (
          await (
            await post("/api/entity", { context: "Data Dictionary", entityType: type, pageSize: 1 })
          ).json()
        ).data[0].entityKeyID as number;
      const env2 = await (
        await post("/api/save", {
          context: "Data Dictionary",
          entityType: "systemenvironment",
          record: {
            name: "crash",
            description: "x",
            technology: "postgres",
            connectionfile: "crash.conf",
          },
          action: "create",
        })
      ).json();
      const src = await (
        await post("/api/save", {
          context: "Data Dictionary",
          entityType: "metadatasource",
          record: {
            application: await key("application"),
            applicationaspect: await key("applicationaspect"),
            systemenvironment: env2.entityKeyID,
            name: "crash",
            description: "x",
            importfrequency: "0 3 * * *",
          },
          action: "create",
        })
      ).json();
      const events = await count(sql`select count(*)::int as n from app.events`);
      const sent = post("/data-dictionary/import-metadata-from-source", {
        EntityKeyID: src.entityKeyID,
      }).catch(() => undefined);
      await until(
        async () =>
          (await count(
            sql`select count(*)::int as n from app.import_runs where outcome = 'running'`,
          )) > 0,
        "the import to start",
      );
      await new Promise((r) => setTimeout(r, 300));
      await server.stop("SIGKILL");
      await sent;
      await restart();
      const objects = await count(
        sql`select count(*)::int as n from ctx_data_dictionary.dataobject where metadatasource = ${src.entityKeyID}`,
      );
      const written = (await count(sql`select count(*)::int as n from app.events`)) - events;
      // Killed mid-way: nothing; finished just before the kill: everything (400 objects, 4,800 elements).
      expect([0, 400]).toContain(objects);
      expect(written).toBe(objects === 0 ? 0 : 400 + 4_800);
    } finally {
      await source.drop();
    }
  });

  it("webhook deliveries killed mid-run all arrive after the restart, again only with their ids", async () => {
    const receiver = await startWebhookReceiver();
    try {
      // Each answer takes a while, so the server dies with deliveries on the wire.
      receiver.on("/crash", { delayMs: 400 });
      const created = await post("/api/webhooks/create", {
        context: "reference",
        url: receiver.url("/crash"),
        entityTypes: ["currency"],
        kinds: ["changes.approved"],
      });
      expect(created.status).toBe(200);
      receiver.secrets.push((await created.json()).secret);
      const codes = Array.from(
        { length: 30 },
        (_, i) => `K${String.fromCharCode(65 + (i % 26))}${i < 26 ? "K" : "L"}`,
      );
      for (const code of codes) {
        const saved = await post("/api/save", {
          context: "reference",
          entityType: "currency",
          record: { code, name: `Crash ${code}`, minor_units: 2 },
        });
        expect(saved.status).toBe(200);
      }
      await until(async () => (receiver.hits.get("/crash") ?? 0) > 0, "the first delivery");
      await server.stop("SIGKILL");
      await restart();
      await until(
        async () => new Set(receiver.received.map((r) => r.id)).size === codes.length,
        "every event",
      );
      const ids = receiver.received.map((r) => r.id);
      expect(ids.every((id) => /^msg_\d+$/.test(id))).toBe(true);
      const waiting = await count(sql<{ n: number }>`select count(*)::int as n
        from app.webhook_deliveries where status <> 'delivered'`);
      expect(waiting).toBe(0);
    } finally {
      await receiver.close();
    }
  });

  it("starts cleanly afterwards and answers readiness", async () => {
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });
});
