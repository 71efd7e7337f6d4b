import { execFileSync } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { DATA_DICTIONARY_CONTEXT, type WebhookSecret } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rightsOfRoles } from "../admin/permissions.ts";
import { importMetadataSource } from "../dictionary/import.service.ts";
import type { ContextModel } from "../model/model.ts";
import { findContext } from "../model/model.ts";
import { SILENT } from "../notifications/notify.service.ts";
import { gitTarget } from "../publish/git-target.ts";
import { publishDictionary } from "../publish/publish.service.ts";
import { createShopDictionary, dictionaryClient } from "../publish/testing/dictionary.ts";
import {
  createSourceDatabase,
  type SourceDatabase,
  sourceServerReachable,
} from "../testing/source-database.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../testing/webhook-receiver.ts";
import { webhooksRound } from "./sender.ts";

/** The Data Dictionary's own events: a metadata import finished, the dictionary published. */

const reachable = await sourceServerReachable();

let t: TestApp;
let receiver: WebhookReceiver;
let work: string;
let context: ContextModel;
let admin: string;
let source: SourceDatabase | undefined;

const round = () =>
  webhooksRound(
    {
      db: t.database.db,
      model: t.prepared.model,
      webhooks: t.config.webhooks,
      notifier: SILENT,
      publicUrl: t.config.publicUrl,
      log: t.app.log,
    },
    "test",
  );

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  work = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-dd-events-"));
  t = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE: "true", CONNECTIONS_DIR: work } });
  admin = await t.login("admin", ADMIN_PASSWORD);
  const found = findContext(t.prepared.model, DATA_DICTIONARY_CONTEXT);
  if (!found) throw new Error("no dictionary context");
  context = found;
  const res = await t.post(
    "/api/webhooks/create",
    {
      context: DATA_DICTIONARY_CONTEXT,
      url: receiver.url("/dictionary"),
      entityTypes: [],
      kinds: ["dictionary.published", "import.finished"],
    },
    admin,
  );
  expect(res.statusCode, res.body).toBe(200);
  receiver.secrets.push(res.json<WebhookSecret>().secret);
});
afterAll(async () => {
  await t.close();
  await receiver.close();
  await source?.drop();
  await fs.rm(work, { recursive: true, force: true });
});

describe("webhooks of the Data Dictionary", () => {
  it("tell that the dictionary was published, with the publish's counts", async () => {
    const dd = dictionaryClient(t, admin);
    await createShopDictionary(dd);
    const bare = path.join(work, "wiki.git");
    execFileSync("git", ["init", "--quiet", "--bare", "-b", "main", bare]);
    const result = await publishDictionary(
      t.database.db,
      context,
      gitTarget(`file://${bare}`, path.join(work, "data")),
      { user: "admin", wikiRoot: "" },
    );
    expect(result.error, result.message).toBe(false);
    await round();
    const [published] = receiver.received.filter((r) => r.payload.type === "dictionary.published");
    expect(published.payload.data).toMatchObject({
      context: DATA_DICTIONARY_CONTEXT,
      target: expect.stringContaining("wiki.git"),
      by: "admin",
      written: result.written,
      unchanged: 0,
      removed: 0,
    });
  });

  it.skipIf(!reachable)("tell that a metadata import finished, or failed", async () => {
    source = await createSourceDatabase(["create table public.orders (id int primary key)"]);
    await fs.writeFile(
      path.join(work, "events.conf"),
      `[src]\nhost=${source.host}\nport=${source.port}\ndbname=${source.name}\nuser=${source.user}\n`,
    );
    const dd = dictionaryClient(t, admin);
    const environment = await dd.create("systemenvironment", {
      name: "Events DB",
      description: "a database",
      technology: "postgres",
      connectionfile: "events.conf",
      edition: await dd.keyOf("edition", "import"),
      uisequence: 1,
    });
    const sourceKey = await dd.create("metadatasource", {
      application: await dd.keyOf("application", "Demo"),
      applicationaspect: await dd.keyOf("applicationaspect", "Operational"),
      systemenvironment: environment,
      name: "Events",
      description: "tables",
      importfrequency: "0 3 * * *",
    });
    const proposer = {
      username: "importer",
      rights: rightsOfRoles(context, new Map([[context.name, new Set(["dictionary_editor"])]])),
    };
    await importMetadataSource(t.database, context, {
      sourceKey,
      connectionsDir: work,
      trigger: "manual",
      proposer,
      notifier: SILENT,
    });
    await fs.writeFile(
      path.join(work, "events.conf"),
      "[src]\nhost=127.0.0.1\nport=1\ndbname=x\nuser=x\nconnect_timeout=2\n",
    );
    await expect(
      importMetadataSource(t.database, context, {
        sourceKey,
        connectionsDir: work,
        trigger: "manual",
        proposer,
        notifier: SILENT,
      }),
    ).rejects.toThrow();
    await round();
    const finished = receiver.received.filter((r) => r.payload.type === "import.finished");
    expect(finished.map((r) => r.payload.data)).toMatchObject([
      {
        source: { key: sourceKey, name: "Events" },
        trigger: "manual",
        succeeded: true,
        counts: { objects: 1 },
      },
      { source: { key: sourceKey, name: "Events" }, trigger: "manual", succeeded: false },
    ]);
  });
});
