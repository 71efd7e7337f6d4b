import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rightsOfRoles } from "../admin/permissions.ts";
import { importMetadataSource } from "../dictionary/import.service.ts";
import { findContext } from "../model/model.ts";
import { listRecords } from "../testing/records-client.ts";
import { type SmtpSink, startSmtpSink } from "../testing/smtp-sink.ts";
import {
  createSourceDatabase,
  type SourceDatabase,
  sourceServerReachable,
} from "../testing/source-database.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { notifierOf } from "./notify.service.ts";
import { enqueueToUser } from "./outbox.repository.ts";
import { sendDue, smtpTransport } from "./sender.ts";

/** Metadata imports notify like uploads; a failed scheduled run tells the source's owner; senders share the outbox. */

const DD = DATA_DICTIONARY_CONTEXT;
const reachable = await sourceServerReachable();
const silentLog = { warn: () => undefined, error: () => undefined } as never;

let smtp: SmtpSink;
let t: TestApp;
let source: SourceDatabase;
let connectionsDir: string;
let curator: string;

async function keyOf(entityType: string, attribute: string, value: string): Promise<number> {
  const list = await listRecords(t, curator, {
    context: DD,
    entityType,
    rowConstraints: [{ attribute, operator: "=", values: [value] }],
  });
  return list.data[0].entityKeyID;
}

async function createSource(name: string, connectionFile: string): Promise<number> {
  const save = (entityType: string, record: object) =>
    t.post("/api/save", { context: DD, entityType, record, action: "create" }, curator);
  const env = await save("systemenvironment", {
    name: `${name} DB`,
    description: "a database",
    technology: "postgres",
    connectionfile: connectionFile,
    edition: await keyOf("edition", "name", "import"),
    uisequence: 1,
  });
  expect(env.statusCode, env.body).toBe(200);
  const src = await save("metadatasource", {
    application: await keyOf("application", "name", "Demo"),
    applicationaspect: await keyOf(
      "applicationaspect",
      "name",
      name === "Broken" ? "Reporting" : "Operational",
    ),
    systemenvironment: env.json().entityKeyID,
    name,
    description: "tables",
    importfrequency: "0 3 * * *",
    enableschedule: true,
  });
  expect(src.statusCode, src.body).toBe(200);
  return src.json().entityKeyID;
}

/** One round of the sender over a pooled transport of its own, closed afterwards. */
async function sendRound(db = t.database.db): Promise<number> {
  const transport = smtpTransport({ ...(t.config.smtp as NonNullable<TestApp["config"]["smtp"]>) });
  try {
    return await sendDue({
      db,
      notifier: notifierOf(t.config),
      contexts: t.prepared.model.contexts,
      transport,
      from: "ledgerline@example.test",
      maxAttempts: 3,
      log: silentLog,
    });
  } finally {
    transport.close();
  }
}

describe.skipIf(!reachable)("notifications of the Data Dictionary", () => {
  beforeAll(async () => {
    smtp = await startSmtpSink();
    connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-notify-dd-"));
    source = await createSourceDatabase([
      "create table public.customer (id int primary key, name text)",
    ]);
    t = await createTestApp({
      env: {
        CONNECTIONS_DIR: connectionsDir,
        SMTP_HOST: "127.0.0.1",
        SMTP_PORT: String(smtp.port),
        SMTP_TLS: "none",
        SMTP_FROM: "ledgerline@example.test",
        PUBLIC_URL: "https://ledgerline.example.test",
      },
    });
    for (const username of ["curator", "reviewer"])
      await t.createUser({ username, roles: [{ context: DD, role: "dictionary_editor" }] });
    curator = await t.login("curator", TEST_USER_PASSWORD);
    await fs.writeFile(
      path.join(connectionsDir, "src.conf"),
      `[src]\nhost=${source.host}\nport=${source.port}\ndbname=${source.name}\nuser=${source.user}\n`,
    );
    await fs.writeFile(
      path.join(connectionsDir, "closed.conf"),
      "[closed]\nhost=127.0.0.1\nport=1\ndbname=nothing\nuser=nobody\nconnect_timeout=2\n",
    );
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.stop();
    await source?.drop();
    await fs.rm(connectionsDir, { recursive: true, force: true });
  });

  it("tells the other editors once per metadata import that its changes wait", async () => {
    const sourceKey = await createSource("Sales", "src.conf");
    const context = findContext(t.prepared.model, DD);
    if (!context) throw new Error("no Data Dictionary context");
    await importMetadataSource(t.database, context, {
      sourceKey,
      connectionsDir,
      proposer: {
        username: "curator",
        rights: rightsOfRoles(context, new Map([[DD, new Set(["dictionary_editor"])]])),
      },
      trigger: "manual",
      notifier: notifierOf(t.config),
    });
    await sendRound();
    const [mail, ...more] = smtp.to("reviewer@example.com");
    expect(more).toHaveLength(0);
    expect(mail?.subject).toMatch(
      /^Data Dictionary: \d+ changes from the metadata import of Sales wait/,
    );
    expect(mail?.text).toContain("Data object: 1 added");
    expect(mail?.text).toContain(`changeSet=import%3A${sourceKey}`);
    expect(smtp.to("curator@example.com")).toHaveLength(0);
  });

  it("tells the owner of a source when its scheduled import fails, without the connection's details", async () => {
    const sourceKey = await createSource("Broken", "closed.conf");
    const context = findContext(t.prepared.model, DD);
    if (!context) throw new Error("no Data Dictionary context");
    await expect(
      importMetadataSource(t.database, context, {
        sourceKey,
        connectionsDir,
        trigger: "schedule",
        notifier: notifierOf(t.config),
      }),
    ).rejects.toThrow();
    await sendRound();
    const failures = smtp.to("curator@example.com");
    expect(failures.map((m) => m.subject)).toEqual([
      "Data Dictionary: the scheduled import of Broken failed",
    ]);
    const text = failures[0]?.text ?? "";
    expect(text).toContain("The scheduled import of the metadata source Broken failed:");
    for (const secret of ["127.0.0.1", "nobody", connectionsDir])
      expect(text).not.toContain(secret);
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "delivers each message once when two instances send at the same time",
    async () => {
      const second = await t.secondInstance();
      try {
        smtp.messages.length = 0;
        for (let i = 0; i < 40; i++)
          await enqueueToUser(t.database.db, "decision", "reviewer", {
            subject: `message ${i}`,
            text: "text",
            html: "<p>text</p>",
          });
        await Promise.all([sendRound(), sendRound(second.database.db)]);
        const ids = smtp.to("reviewer@example.com").map((m) => m.messageId);
        expect(ids).toHaveLength(40);
        expect(new Set(ids).size).toBe(40);
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from app.outbox where status <> 'sent'`.execute(t.database.db);
        expect(rows[0]?.n).toBe(0);
      } finally {
        await second.close();
      }
    },
  );
});
