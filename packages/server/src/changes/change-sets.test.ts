import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { PendingAction, PendingChangeSet } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listRecords } from "../testing/records-client.ts";
import {
  createSourceDatabase,
  type SourceDatabase,
  sourceServerReachable,
} from "../testing/source-database.ts";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

/** Change sets: the uploads (and metadata imports) whose changes can be reviewed and decided as one. */

let t: TestApp;
let connectionsDir: string;
const cookies: Record<string, string> = {};
const COUNTRY_HEADERS = ["ISO2", "Name", "Currency", "Population", "Joined EU", "EU member"];

beforeAll(async () => {
  connectionsDir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-change-sets-"));
  t = await createTestApp({ env: { CONNECTIONS_DIR: connectionsDir } });
  const people = {
    steward: [{ context: "reference", role: "steward" }],
    approver: [{ context: "reference", role: "approver" }],
    viewer: [{ context: "reference", role: "viewer" }],
    outsider: [{ context: "Data Dictionary", role: "dictionary_viewer" }],
    curator: [{ context: "Data Dictionary", role: "dictionary_editor" }],
  };
  for (const [username, roles] of Object.entries(people)) {
    await t.createUser({ username, roles });
    cookies[username] = await t.login(username, TEST_USER_PASSWORD);
  }
  cookies.admin = await t.login("admin", ADMIN_PASSWORD);
});
afterAll(async () => {
  await t.close();
  await fs.rm(connectionsDir, { recursive: true, force: true });
});

const newCountry = (iso2: string) => [iso2, `Testland ${iso2}`, "EUR", 1000, null, false];

/** Uploads countries as the steward (pending unless said otherwise) and answers the upload id. */
async function uploadCountries(
  fileName: string,
  rows: unknown[][],
  options: { dryRun?: boolean; approveEverything?: boolean; as?: string } = {},
): Promise<number> {
  const { as = "steward", ...flags } = options;
  const file = await workbookOf("Countries", [COUNTRY_HEADERS, ...rows]);
  const res = await upload(t, cookies[as], file, { layout: "countries", fileName, ...flags });
  expect(res.statusCode, res.body).toBe(200);
  return Number(res.headers["x-upload-id"]);
}

function askChangeSets(entityType: string, cookie: string, context = "reference") {
  return t.post("/api/pendingchangesets", { context, entityType }, cookie);
}

async function changeSets(
  entityType: string,
  cookie = cookies.viewer,
  context = "reference",
): Promise<PendingChangeSet[]> {
  const res = await askChangeSets(entityType, cookie, context);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as PendingChangeSet[];
}

const setOf = (sets: PendingChangeSet[], kind: PendingChangeSet["kind"], id: number) =>
  sets.find((s) => s.kind === kind && s.id === id);

function countsOf(kinds: Partial<Record<PendingAction, number>>): Record<PendingAction, number> {
  return { Add: 0, Change: 0, Missing: 0, Create: 0, Update: 0, Amend: 0, Delete: 0, ...kinds };
}

/** The iso2 codes of the countries whose pending change comes from one upload. */
async function pendingFromUpload(uploadId: number): Promise<string[]> {
  const list = await listRecords(t, cookies.viewer, {
    entityType: "country",
    requirePending: true,
    includeDeleted: true,
    pendingUploadId: uploadId,
    pageSize: 0,
    rowOrders: [{ attribute: "iso2", asc: true }],
  });
  expect(list.querySize).toBe(list.data.length);
  return list.data.map((r) => String(r.keyAttrValues.iso2));
}

describe("POST /api/pendingchangesets", () => {
  it("lists the uploads of a type that have pending changes, newest first, counted by kind", async () => {
    const first = await uploadCountries("first.xlsx", [
      newCountry("XA"),
      newCountry("XB"),
      ["DE", "Germany", "EUR", 84_000_001, "1958-01-01", true],
    ]);
    const second = await uploadCountries("second.xlsx", [newCountry("XC")]);
    const checked = await uploadCountries("check.xlsx", [newCountry("XD")], { dryRun: true });
    const applied = await uploadCountries("direct.xlsx", [newCountry("XE")], { as: "admin" });
    const approved = await t.post(
      "/api/approve",
      { context: "reference", entityType: "country", uploadId: applied },
      cookies.approver,
    );
    expect(approved.statusCode, approved.body).toBe(200);

    const sets = await changeSets("country");
    const ids = sets.map((s) => s.id);
    expect(ids.indexOf(second)).toBeLessThan(ids.indexOf(first));
    expect(setOf(sets, "upload", first)).toEqual({
      kind: "upload",
      id: first,
      name: "first.xlsx",
      createdBy: "steward",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      pending: 3,
      counts: countsOf({ Add: 2, Change: 1 }),
    });
    expect(setOf(sets, "upload", second)).toMatchObject({ pending: 1, counts: { Add: 1 } });
    // A check writes nothing and an approved upload waits for nothing: neither is a change set.
    expect(setOf(sets, "upload", checked)).toBeUndefined();
    expect(setOf(sets, "upload", applied)).toBeUndefined();
    // Another type's uploads are not listed.
    expect(await changeSets("currency")).toEqual([]);
  });

  it("answers 403 to users who may not read the type, and 404 for an unknown type", async () => {
    const outsider = await askChangeSets("country", cookies.outsider);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json().message).toBe("You may not read Country records");
    expect((await askChangeSets("country", cookies.curator)).statusCode).toBe(403);
    expect((await askChangeSets("planet", cookies.viewer)).statusCode).toBe(404);
    expect((await t.post("/api/pendingchangesets", { context: "reference" })).statusCode).toBe(401);
  });
});

describe("pending lists of one upload (pendingUploadId)", () => {
  it("shows only the records whose pending change comes from that upload", async () => {
    const one = await uploadCountries("one.xlsx", [newCountry("XF"), newCountry("XG")]);
    const other = await uploadCountries("other.xlsx", [newCountry("XH")]);
    expect(await pendingFromUpload(one)).toEqual(["XF", "XG"]);
    expect(await pendingFromUpload(other)).toEqual(["XH"]);
    // A later upload takes over a record's pending change, and with it the record.
    const later = await uploadCountries("later.xlsx", [
      [...newCountry("XG").slice(0, 3), 2000, null, false],
    ]);
    expect(await pendingFromUpload(one)).toEqual(["XF"]);
    expect(await pendingFromUpload(later)).toEqual(["XG"]);
    expect(await pendingFromUpload(999_999)).toEqual([]);
  });
});

describe("deciding on a whole upload (uploadId)", () => {
  it.each([
    ["approve", "approved", ["QM", "QN"]],
    ["reject", "rejected", []],
  ])(
    "%ss every change of one upload and leaves the other upload's changes pending",
    async (verb, done, visible) => {
      // Codes ISO 3166 leaves for users to assign, so no seeded country has them.
      const [a, b, c] = verb === "approve" ? ["QM", "QN", "QO"] : ["QP", "QQ", "QR"];
      const decided = await uploadCountries(`${verb}-me.xlsx`, [newCountry(a), newCountry(b)]);
      const waiting = await uploadCountries(`wait-${verb}.xlsx`, [newCountry(c)]);
      const res = await t.post(
        `/api/${verb}`,
        { context: "reference", entityType: "country", uploadId: decided },
        cookies.approver,
      );
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ Msg: `2 changes ${done}`, count: 2, conflicts: [] });

      const shown = await listRecords(t, cookies.viewer, {
        entityType: "country",
        rowConstraints: [{ attribute: "iso2", operator: "=", values: [a, b, c] }],
        rowOrders: [{ attribute: "iso2", asc: true }],
      });
      expect(shown.data.map((r) => r.keyAttrValues.iso2)).toEqual(visible);
      expect(await pendingFromUpload(decided)).toEqual([]);
      expect(await pendingFromUpload(waiting)).toEqual([c]);
      const sets = await changeSets("country");
      expect(setOf(sets, "upload", decided)).toBeUndefined();
      expect(setOf(sets, "upload", waiting)).toMatchObject({
        name: `wait-${verb}.xlsx`,
        pending: 1,
      });
    },
  );

  it("answers 403 to a reader without the approve right and decides nothing", async () => {
    const id = await uploadCountries("not-yours.xlsx", [newCountry("QS")]);
    const res = await t.post(
      "/api/approve",
      { context: "reference", entityType: "country", uploadId: id },
      cookies.viewer,
    );
    expect(res.statusCode).toBe(403);
    expect(await pendingFromUpload(id)).toEqual(["QS"]);
  });
});

const reachable = await sourceServerReachable();

describe.skipIf(!reachable)("metadata imports as change sets", () => {
  const DD = "Data Dictionary";
  let source: SourceDatabase;

  beforeAll(async () => {
    source = await createSourceDatabase([
      "create schema shop",
      "create table shop.item (id int primary key, title text)",
    ]);
    await fs.writeFile(
      path.join(connectionsDir, "shop.conf"),
      `[shop]\nhost=${source.host}\nport=${source.port}\ndbname=${source.name}\nuser=${source.user}\n`,
    );
    await fs.writeFile(
      path.join(connectionsDir, ".pgpass"),
      `${source.host}:${source.port}:*:${source.user}:unused-with-trust\n`,
      { mode: 0o600 },
    );
  });
  afterAll(() => source?.drop());

  async function keyOf(entityType: string, name: string): Promise<number> {
    const list = await listRecords(t, cookies.admin, {
      context: DD,
      entityType,
      rowConstraints: [{ attribute: "name", operator: "=", values: [name] }],
    });
    return list.data[0].entityKeyID;
  }

  async function created(entityType: string, record: object): Promise<number> {
    const res = await t.post(
      "/api/save",
      { context: DD, entityType, record, action: "create" },
      cookies.admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json().entityKeyID;
  }

  async function importOf(sourceKey: number): Promise<void> {
    const res = await t.post(
      "/data-dictionary/import-metadata-from-source",
      { EntityKeyID: sourceKey },
      cookies.admin,
    );
    expect(res.statusCode, res.body).toBe(200);
  }

  it("lists one change set per metadata source, named after it, and filters by it", async () => {
    const environment = await created("systemenvironment", {
      name: "Shop DB",
      description: "The shop",
      technology: "postgres",
      connectionfile: "shop.conf",
      edition: await keyOf("edition", "import"),
      uisequence: 1,
    });
    const sourceKey = await created("metadatasource", {
      application: await keyOf("application", "Demo"),
      applicationaspect: await keyOf("applicationaspect", "Operational"),
      systemenvironment: environment,
      name: "Shop",
      description: "Shop tables",
      importfrequency: "0 3 * * *",
      enableschedule: false,
    });
    await importOf(sourceKey);
    await source.exec("alter table shop.item add column price numeric");
    await importOf(sourceKey);

    const sets = await changeSets("dataelement", cookies.curator, DD);
    expect(sets).toEqual([
      {
        kind: "import",
        id: sourceKey,
        name: "Shop",
        createdBy: "admin",
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        pending: 3,
        counts: countsOf({ Add: 3 }),
      },
    ]);
    const list = await listRecords(t, cookies.curator, {
      context: DD,
      entityType: "dataelement",
      requirePending: true,
      includeDeleted: true,
      pendingImportSourceId: sourceKey,
      pageSize: 0,
    });
    expect(list.data.map((r) => r.keyAttrValues.name).sort()).toEqual(["id", "price", "title"]);
    const none = await listRecords(t, cookies.curator, {
      context: DD,
      entityType: "dataelement",
      requirePending: true,
      includeDeleted: true,
      pendingImportSourceId: sourceKey + 1000,
    });
    expect(none.querySize).toBe(0);
  });
});
