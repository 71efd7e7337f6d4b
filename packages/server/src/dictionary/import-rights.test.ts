import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyByName, listRecords, messageOf } from "../testing/records-client.ts";
import {
  createSourceDatabase,
  type SourceDatabase,
  sourceServerReachable,
  writeConnectionFile,
} from "../testing/source-database.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { testModelDir } from "../testing/test-model.ts";
import { dictionaryContext } from "./dictionary-model.ts";
import { startScheduler } from "./scheduler.ts";

// Who proposes what a metadata import finds, and what they may propose: the caller of a manual
// import, the user who scheduled the source for a scheduled one; an Add needs create, a Change
// edit, a Missing delete, on data objects and data elements alike.

const DD = "Data Dictionary";
const reachable = await sourceServerReachable();

let t: TestApp;
let modelDir: string;
let connectionsDir: string;
let source: SourceDatabase;
const cookies: Record<string, string> = {};
let environment: number;

const save = (entityType: string, record: object, cookie: string, action = "create") =>
  t.post("/api/save", { context: DD, entityType, record, action }, cookie);
const importAs = (sourceKey: number, cookie: string) =>
  t.post("/data-dictionary/import-metadata-from-source", { EntityKeyID: sourceKey }, cookie);

/** A metadata source of the test environment, saved by `cookie`'s user; answers its key. */
async function newSource(
  [application, aspect]: [string, string],
  cookie: string,
  scheduled = false,
): Promise<number> {
  const key = (entityType: string, name: string) =>
    keyByName(t, cookies.admin, { context: DD, entityType }, name);
  const res = await save(
    "metadatasource",
    {
      application: await key("application", application),
      applicationaspect: await key("applicationaspect", aspect),
      systemenvironment: environment,
      name: `${application} ${aspect}`,
      description: "The shop's tables",
      importfrequency: "* * * * *",
      enableschedule: scheduled,
    },
    cookie,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().entityKeyID;
}

/** The pending events of the dictionary's imported types, with who proposed them. */
async function pendingImport(sourceKey: number) {
  const { rows } = await sql<{ event_id: number; entity_type: string; created_by: string }>`
    select event_id::int, entity_type, created_by from app.events
    where source = ${`import:${sourceKey}`} and status = 'pending' order by event_id`.execute(
    t.database.db,
  );
  return rows;
}

async function approveImport(sourceKey: number, cookie: string) {
  const pending = await pendingImport(sourceKey);
  const answers = [];
  for (const entityType of ["dataobject", "dataelement"]) {
    const ids = pending.filter((e) => e.entity_type === entityType).map((e) => e.event_id);
    if (ids.length > 0)
      answers.push(
        await t.post("/api/approve", { context: DD, entityType, entityEventIds: ids }, cookie),
      );
  }
  return answers;
}

/** What a refused import must leave as it was. */
async function footprint(): Promise<unknown> {
  const { rows } = await sql`select
    (select count(*) from app.events where entity_type in ('dataobject', 'dataelement'))::int as events`.execute(
    t.database.db,
  );
  return rows[0];
}

async function lastRun(sourceKey: number) {
  return t.database.db
    .selectFrom("app.import_runs")
    .select(["trigger", "started_by", "outcome", "message"])
    .where("metadata_source_id", "=", sourceKey)
    .orderBy("run_id", "desc")
    .executeTakeFirstOrThrow();
}

describe.skipIf(!reachable)("metadata imports", () => {
  beforeAll(async () => {
    modelDir = await testModelDir({
      "data-dictionary.yaml": (doc) => {
        (doc.roles as unknown[]).push(
          { name: "creator", uiname: "Creator", grants: { "*": ["read", "create"] } },
          { name: "changer", uiname: "Changer", grants: { "*": ["read", "edit"] } },
        );
      },
    });
    connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-connections-"));
    source = await createSourceDatabase([
      "create schema shop",
      "create table shop.item (id int primary key, name text)",
    ]);
    await writeConnectionFile(connectionsDir, "shop.conf", source);
    t = await createTestApp({ env: { MODEL_DIR: modelDir, CONNECTIONS_DIR: connectionsDir } });
    for (const [username, role] of [
      ["curator", "dictionary_editor"],
      ["reviewer", "dictionary_editor"],
      ["creator", "creator"],
      ["changer", "changer"],
    ]) {
      await t.createUser({ username, roles: [{ context: DD, role }] });
      cookies[username] = await t.login(username, TEST_USER_PASSWORD);
    }
    cookies.admin = await t.login("admin", ADMIN_PASSWORD);
    const env = await save(
      "systemenvironment",
      {
        name: "Shop DB",
        description: "The shop",
        technology: "postgres",
        connectionfile: "shop.conf",
        edition: await keyByName(
          t,
          cookies.admin,
          { context: DD, entityType: "edition" },
          "import",
        ),
        uisequence: 1,
      },
      cookies.admin,
    );
    expect(env.statusCode, env.body).toBe(200);
    environment = env.json().entityKeyID;
  });
  afterAll(async () => {
    await t?.close();
    await source?.drop();
    await fs.rm(connectionsDir, { recursive: true, force: true });
    await fs.rm(modelDir, { recursive: true, force: true });
  });

  describe("a scheduled import", () => {
    /** Runs what is due `minutes` from now: each run is claimed once per firing. */
    const tick = async (minutes = 1) => {
      const scheduler = startScheduler(t.database, dictionaryContext(t.prepared.model), {
        connectionsDir,
        log: t.app.log,
        autoStart: false,
      });
      await scheduler.tick(new Date(Date.now() + minutes * 60_000 + 5_000));
      await scheduler.stop();
    };

    it("is proposed by the user who scheduled the source, who may not approve it: a second person does", async () => {
      const sourceKey = await newSource(["Demo", "Operational"], cookies.curator, true);
      await tick();
      expect(await lastRun(sourceKey)).toMatchObject({
        trigger: "schedule",
        started_by: "curator",
        outcome: "succeeded",
      });
      const pending = await pendingImport(sourceKey);
      expect(pending.length).toBeGreaterThan(0);
      expect(new Set(pending.map((e) => e.created_by))).toEqual(new Set(["curator"]));

      const own = await approveImport(sourceKey, cookies.curator);
      expect(own.map((r) => r.statusCode)).toEqual([403, 403]);
      expect(messageOf(own[0])).toMatch(/^You cannot approve your own changes/);
      const other = await approveImport(sourceKey, cookies.reviewer);
      expect(other.map((r) => r.statusCode)).toEqual([200, 200]);
      expect(await pendingImport(sourceKey)).toEqual([]);
      // Unscheduled again, so that the next ticks leave it alone.
      const off = await save(
        "metadatasource",
        { entityKeyID: sourceKey, enableschedule: false },
        cookies.curator,
        "update",
      );
      expect(off.statusCode, off.body).toBe(200);
    });

    it("whose scheduler was removed is refused, writing nothing, until someone saves the source again", async () => {
      await t.createUser({
        username: "leaver",
        roles: [{ context: DD, role: "dictionary_editor" }],
      });
      const sourceKey = await newSource(
        ["Demo", "Reporting"],
        await t.login("leaver", TEST_USER_PASSWORD),
        true,
      );
      const removed = await t.post("/api/removeuser", { username: "leaver" }, cookies.admin);
      expect(removed.statusCode, removed.body).toBe(200);
      const before = await footprint();
      await tick();
      expect(await lastRun(sourceKey)).toEqual({
        trigger: "schedule",
        started_by: "scheduler",
        outcome: "failed",
        message:
          "nobody stands behind this schedule (the user who last saved the source is removed, or none did): save the source with 'Enable Schedule' to run it as yourself",
      });
      expect(await footprint()).toEqual(before);

      const saved = await save(
        "metadatasource",
        { entityKeyID: sourceKey, enableschedule: true, description: "Taken over" },
        cookies.reviewer,
        "update",
      );
      expect(saved.statusCode, saved.body).toBe(200);
      await tick(2);
      expect(await lastRun(sourceKey)).toMatchObject({
        started_by: "reviewer",
        outcome: "succeeded",
      });
      await save(
        "metadatasource",
        { entityKeyID: sourceKey, enableschedule: false },
        cookies.reviewer,
        "update",
      );
    });
  });

  describe("a manual import", () => {
    let sourceKey: number;

    it("needs create for what it adds: refused to an edit-only user, allowed to a create-only one", async () => {
      const shop = await save("application", { name: "Shop" }, cookies.admin);
      expect(shop.statusCode, shop.body).toBe(200);
      sourceKey = await newSource(["Shop", "Operational"], cookies.admin);
      const before = await footprint();
      const refused = await importAs(sourceKey, cookies.changer);
      expect([refused.statusCode, refused.body]).toEqual([
        403,
        "The changes were refused; nothing was changed: you may not create Data object records (1 would be added)",
      ]);
      expect(await footprint()).toEqual(before);
      expect(await lastRun(sourceKey)).toMatchObject({
        started_by: "changer",
        outcome: "failed",
        message: refused.body,
      });

      const added = await importAs(sourceKey, cookies.creator);
      expect(added.statusCode, added.body).toBe(200);
      expect(added.json().Msg).toMatch(/^metadata imported: 1 data object \(1 added/);
      expect((await approveImport(sourceKey, cookies.reviewer)).map((r) => r.statusCode)).toEqual([
        200, 200,
      ]);
    });

    it("needs edit for what it changes and create for the data elements it adds", async () => {
      await source.exec(
        "comment on column shop.item.name is 'What the item is called'",
        "alter table shop.item add column price numeric",
      );
      const before = await footprint();
      const byCreator = await importAs(sourceKey, cookies.creator);
      expect([byCreator.statusCode, byCreator.body]).toEqual([
        403,
        "The changes were refused; nothing was changed: you may not edit Data element records (1 would be changed)",
      ]);
      const byChanger = await importAs(sourceKey, cookies.changer);
      expect([byChanger.statusCode, byChanger.body]).toEqual([
        403,
        "The changes were refused; nothing was changed: you may not create Data element records (1 would be added)",
      ]);
      expect(await footprint()).toEqual(before);
      const byCurator = await importAs(sourceKey, cookies.curator);
      expect(byCurator.statusCode, byCurator.body).toBe(200);
      expect((await approveImport(sourceKey, cookies.reviewer)).map((r) => r.statusCode)).toEqual([
        200,
      ]);
    });

    it("needs delete for what it marks missing", async () => {
      await source.exec("drop table shop.item");
      const before = await footprint();
      const refused = await importAs(sourceKey, cookies.creator);
      expect(refused.statusCode, refused.body).toBe(403);
      expect(refused.body).toBe(
        "The changes were refused; nothing was changed: you may not delete Data object records (1 would be marked missing)",
      );
      expect(await footprint()).toEqual(before);
      const list = await listRecords(t, cookies.admin, {
        context: DD,
        entityType: "dataobject",
        rowConstraints: [{ attribute: "metadatasource", operator: "=", values: [sourceKey] }],
      });
      expect(list.data.map((r) => r.requested.attrValues.name.value)).toEqual(["item"]);
    });
  });
});
