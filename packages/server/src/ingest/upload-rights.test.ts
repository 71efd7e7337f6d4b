import fs from "node:fs/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { testModelDir } from "../testing/test-model.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

// Narrow roles on the demo's reference data: an upload needs, for what its rows propose, create
// (added records), edit (changed ones) and delete (records marked missing), not one of them alone.

const COUNTRY_HEADERS = ["ISO2", "Name", "Currency", "Population", "Joined EU", "EU member"];

let t: TestApp;
let modelDir: string;
let creator: string;
let editor: string;

beforeAll(async () => {
  modelDir = await testModelDir({
    "reference.yaml": (doc) => {
      (doc.roles as unknown[]).push(
        { name: "creator", uiname: "Creator", grants: { "*": ["read", "create"] } },
        { name: "editor", uiname: "Editor", grants: { "*": ["read", "edit"] } },
      );
    },
  });
  t = await createTestApp({ env: { MODEL_DIR: modelDir } });
  for (const role of ["creator", "editor"])
    await t.createUser({ username: role, roles: [{ context: "reference", role }] });
  creator = await t.login("creator", TEST_USER_PASSWORD);
  editor = await t.login("editor", TEST_USER_PASSWORD);
});
afterAll(async () => {
  await t?.close();
  await fs.rm(modelDir, { recursive: true, force: true });
});

/** What a refused upload must leave as it was: the countries and the change history. */
async function footprint(): Promise<unknown> {
  const { rows } = await sql`select
    (select count(*) from app.events)::int as events,
    (select coalesce(sum(version), 0) from ctx_reference.country)::int as versions,
    (select count(*) from ctx_reference.country)::int as countries`.execute(t.database.db);
  return rows[0];
}

const countries = (...rows: unknown[][]) => workbookOf("Countries", [COUNTRY_HEADERS, ...rows]);
const germany = (population: number) => ["DE", "Germany", "EUR", population, null, true];
const newCountry = ["QX", "Questland", "EUR", 1_000, null, false];

describe("an upload's rows need the right for what they propose", () => {
  it("refuses a create-only user's file that changes a record, dry run and upload, writing nothing", async () => {
    const before = await footprint();
    const file = await countries(germany(1), newCountry);
    const checked = await upload(t, creator, file, { layout: "countries", dryRun: true });
    expect([checked.statusCode, checked.body]).toEqual([
      403,
      "Check only, nothing was changed. The changes would be refused: you may not edit Country records (1 would be changed)",
    ]);
    const refused = await upload(t, creator, file, { layout: "countries" });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.body).toMatch(
      /^The changes were refused; nothing was changed: you may not edit/,
    );
    expect(await footprint()).toEqual(before);
    const recorded = await t.database.db
      .selectFrom("app.uploads")
      .select(["outcome", "message"])
      .where("upload_id", "=", Number(refused.headers["x-upload-id"]))
      .executeTakeFirstOrThrow();
    expect(recorded).toEqual({ outcome: "failed", message: refused.body });
  });

  it("lets a create-only user propose new records", async () => {
    const res = await upload(t, creator, await countries(newCountry), { layout: "countries" });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).toMatch(/1 added, 0 changed, 0 missing, 0 unchanged; 1 change pending/);
  });

  it("refuses an edit-only user's file that adds a record, and lets them change one", async () => {
    const before = await footprint();
    const adding = await upload(
      t,
      editor,
      await countries(germany(2), ["QY", "Whyland", "EUR", 5, null, false]),
      { layout: "countries" },
    );
    expect([adding.statusCode, adding.body]).toEqual([
      403,
      "The changes were refused; nothing was changed: you may not create Country records (1 would be added)",
    ]);
    expect(await footprint()).toEqual(before);
    const changing = await upload(t, editor, await countries(germany(2)), { layout: "countries" });
    expect(changing.statusCode, changing.body).toBe(200);
    expect(changing.body).toMatch(/0 added, 1 changed, .*; 1 change pending approval$/);
  });

  it("refuses records marked missing to a user who may not delete", async () => {
    const before = await footprint();
    const res = await upload(t, editor, await countries(germany(3)), {
      layout: "countries",
      deleteMissing: true,
      confirmMassMissing: true,
    });
    expect(res.statusCode, res.body).toBe(403);
    expect(res.body).toMatch(/you may not delete Country records \(\d+ would be marked missing\)$/);
    expect(await footprint()).toEqual(before);
  });
});
