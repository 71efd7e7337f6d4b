import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { FastifyBaseLogger } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schemaNameOf } from "../model/model.ts";
import { keyByName, messageOf } from "../testing/records-client.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  REPO_ROOT,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";
import { FIRES_TOO_OFTEN } from "./cron.ts";
import { dictionaryContext } from "./dictionary-model.ts";
import { startScheduler } from "./scheduler.ts";

const DD = "Data Dictionary";
const SOURCES = sql.id(schemaNameOf(DD), "metadatasource");
// The shipped model has no upload layout for metadata sources; an operator may add one like this.
const SOURCE_LAYOUT = `
fileLayouts:
  - name: metadatasources
    uiName: Metadata sources
    entityType: metadatasource
    sheet: Sources
    columns:
      - { header: Application, attribute: application }
      - { header: Application aspect, attribute: applicationaspect }
      - { header: System environment, attribute: systemenvironment }
      - { header: Name, attribute: name }
      - { header: Description, attribute: description }
      - { header: Import frequency, attribute: importfrequency }
      - { header: Enable schedule, attribute: enableschedule }
`;
const HEADERS = [
  "Application",
  "Application aspect",
  "System environment",
  "Name",
  "Description",
  "Import frequency",
  "Enable schedule",
];

let t: TestApp;
let modelDir: string;
let admin: string;
let environment: string;
let sourceKey: number;

const save = (record: object, action: "create" | "update") =>
  t.post("/api/save", { context: DD, entityType: "metadatasource", record, action }, admin);

/** What a refusal must leave untouched: the sources as stored and the change history. */
async function snapshot(): Promise<unknown> {
  const { rows } = await sql`select * from ${SOURCES} order by entity_key_id`.execute(
    t.database.db,
  );
  const events = await sql<{ n: number }>`select count(*)::int as n from app.events`.execute(
    t.database.db,
  );
  return { rows, events: events.rows[0].n };
}

beforeAll(async () => {
  modelDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-model-"));
  await fs.cp(path.join(REPO_ROOT, "model"), modelDir, { recursive: true });
  await fs.appendFile(path.join(modelDir, "data-dictionary.yaml"), SOURCE_LAYOUT);
  t = await createTestApp({ env: { MODEL_DIR: modelDir } });
  admin = await t.login("admin", ADMIN_PASSWORD);
  environment = "Frequency test DB";
  const env = await t.post(
    "/api/save",
    {
      context: DD,
      entityType: "systemenvironment",
      action: "create",
      record: {
        name: environment,
        description: "Scheduled sources",
        technology: "postgres",
        connectionfile: "absent.conf",
      },
    },
    admin,
  );
  expect(env.statusCode, env.body).toBe(200);
  const keys = (entityType: string, name: string) =>
    keyByName(t, admin, { context: DD, entityType }, name);
  const created = await save(
    {
      application: await keys("application", "Demo"),
      applicationaspect: await keys("applicationaspect", "Operational"),
      systemenvironment: env.json().entityKeyID,
      name: "Nightly",
      description: "Imported every night",
      importfrequency: "0 3 * * *",
    },
    "create",
  );
  expect(created.statusCode, created.body).toBe(200);
  sourceKey = created.json().entityKeyID;
});
afterAll(async () => {
  await t?.close();
  await fs.rm(modelDir, { recursive: true, force: true });
});

describe("the import frequency must be a valid cron string", () => {
  it("refuses a create or an update with an invalid one by attribute and parser message, changing nothing", async () => {
    const before = await snapshot();
    const created = await save(
      {
        application: 1,
        applicationaspect: 1,
        systemenvironment: 1,
        name: "Broken",
        description: "Never saved",
        importfrequency: "61 * * * *",
      },
      "create",
    );
    expect(created.statusCode).toBe(400);
    expect(messageOf(created)).toBe(
      'importfrequency: "61 * * * *" is not a valid cron string (CronPattern: Invalid value for minute: 61)',
    );
    for (const [text, reason] of [
      ["0 3 * *", "a cron expression has 5 or 6 fields, not 4"],
      ["@daily", "a cron expression has 5 or 6 fields, not 1"],
      ["0 0 0 * * * 2030", "a cron expression has 5 or 6 fields, not 7"],
      ["*/2 * * * * *", FIRES_TOO_OFTEN],
    ]) {
      const updated = await save({ entityKeyID: sourceKey, importfrequency: text }, "update");
      expect(updated.statusCode).toBe(400);
      expect(messageOf(updated)).toBe(
        `importfrequency: ${JSON.stringify(text)} is not a valid cron string (${reason})`,
      );
    }
    expect(await snapshot()).toEqual(before);

    const six = await save({ entityKeyID: sourceKey, importfrequency: "0 */5 * * * *" }, "update");
    expect(six.statusCode, six.body).toBe(200);
  });

  it("refuses an upload with an invalid one by row, column and parser message, changing nothing", async () => {
    const before = await snapshot();
    const rows = [
      HEADERS,
      ["Demo", "Reporting", environment, "Weekly", "Every Monday", "0 6 * * 1", false],
      ["Demo", "Operational", environment, "Nightly", "Now hourly", "0 * * * * * *", false],
    ];
    const res = await upload(t, admin, await workbookOf("Sources", rows), {
      context: DD,
      layout: "metadatasources",
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toBe(
      [
        "The file was refused; nothing was changed. Problems:",
        `row 3, column 'Import frequency': "0 * * * * * *" is not a valid cron string (a cron expression has 5 or 6 fields, not 7)`,
      ].join("\n"),
    );
    expect(await snapshot()).toEqual(before);

    rows[2][5] = "0 * * * *";
    const fixed = await upload(t, admin, await workbookOf("Sources", rows), {
      context: DD,
      layout: "metadatasources",
    });
    expect(fixed.statusCode, fixed.body).toBe(200);
    expect(fixed.body).toMatch(/1 added, 1 changed/);
    // Metadata sources allow no self-approval: a second editor approves the upload.
    await t.createUser({
      username: "reviewer",
      roles: [{ context: DD, role: "dictionary_editor" }],
    });
    const approved = await t.post(
      "/api/approve",
      {
        context: DD,
        entityType: "metadatasource",
        uploadId: Number(fixed.headers["x-upload-id"]),
      },
      await t.login("reviewer", TEST_USER_PASSWORD),
    );
    expect(approved.statusCode, approved.body).toBe(200);
  });

  it("the scheduler skips a source whose stored cron is invalid, warns once and runs the others", async () => {
    const weekly = await keyByName(
      t,
      admin,
      { context: DD, entityType: "metadatasource" },
      "Weekly",
    );
    for (const key of [sourceKey, weekly]) {
      const enabled = await save(
        { entityKeyID: key, enableschedule: true, importfrequency: "* * * * *" },
        "update",
      );
      expect(enabled.statusCode, enabled.body).toBe(200);
    }
    // As a row saved before the rule: written straight into the table.
    await sql`update ${SOURCES} set importfrequency = '61 * * * *' where entity_key_id = ${weekly}`.execute(
      t.database.db,
    );
    const warnings: unknown[] = [];
    const log = Object.assign(Object.create(t.app.log) as FastifyBaseLogger, {
      warn: (...args: unknown[]) => warnings.push(args[0]),
    });
    const scheduler = startScheduler(t.database, dictionaryContext(t.prepared.model), {
      connectionsDir: t.config.connectionsDir,
      log,
      autoStart: false,
    });
    await scheduler.tick(new Date(Date.now() + 65_000));
    await scheduler.tick(new Date(Date.now() + 130_000));
    await scheduler.stop();

    const runs = await t.database.db
      .selectFrom("app.import_runs")
      .select(["metadata_source_id", "outcome"])
      .where("trigger", "=", "schedule")
      .execute();
    // The valid source ran at each tick (and failed: its connection file does not exist).
    expect(runs).toEqual([
      { metadata_source_id: sourceKey, outcome: "failed" },
      { metadata_source_id: sourceKey, outcome: "failed" },
    ]);
    expect(warnings.filter((w) => (w as { cron?: string }).cron !== undefined)).toEqual([
      {
        source: weekly,
        cron: "61 * * * *",
        problem: "CronPattern: Invalid value for minute: 61",
      },
    ]);
  });

  it("the scheduler never runs a stored cron that fires every second, and says why once", async () => {
    await sql`delete from app.import_runs`.execute(t.database.db);
    const enabled = await save(
      { entityKeyID: sourceKey, enableschedule: true, importfrequency: "0 3 * * *" },
      "update",
    );
    expect(enabled.statusCode, enabled.body).toBe(200);
    // As a row saved before the bound: written straight into the table.
    await sql`update ${SOURCES} set enableschedule = (entity_key_id = ${sourceKey}), importfrequency = '* * * * * *'`.execute(
      t.database.db,
    );
    const warnings: unknown[] = [];
    const log = Object.assign(Object.create(t.app.log) as FastifyBaseLogger, {
      warn: (...args: unknown[]) => warnings.push(args[0]),
    });
    const scheduler = startScheduler(t.database, dictionaryContext(t.prepared.model), {
      connectionsDir: t.config.connectionsDir,
      log,
      autoStart: false,
    });
    for (const seconds of [1, 2, 3, 61])
      await scheduler.tick(new Date(Date.now() + seconds * 1000));
    await scheduler.stop();

    expect(await t.database.db.selectFrom("app.import_runs").select("run_id").execute()).toEqual(
      [],
    );
    expect(warnings).toEqual([
      { source: sourceKey, cron: "* * * * * *", problem: FIRES_TOO_OFTEN },
    ]);
  });
});
