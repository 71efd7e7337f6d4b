import { ChangesPage, type CreatedApiToken, type FeedChange } from "@ledgerline/contract";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messageOf } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";

let t: TestApp;
let steward: string;
let approver: string;
let both: string;

beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  await t.createUser({
    username: "both",
    roles: [
      { context: "reference", role: "steward" },
      { context: "reference", role: "approver" },
    ],
  });
  await t.createUser({ username: "outsider", roles: [] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
  both = await t.login("both", TEST_USER_PASSWORD);
});
afterAll(() => t.close());

const post = (url: string, body: object, credential = steward) =>
  t.post(url, { context: "reference", ...body }, credential);

async function changesAfter(after: string | undefined, body: object = {}, credential = steward) {
  const res = await post("/api/changes", { after, ...body }, credential);
  expect(res.statusCode, res.body).toBe(200);
  // The route writes its answer without checking it against the schema: every answer here is.
  return ChangesPage.parse(res.json());
}

/** Follows the feed from `after` to its end, a page of `limit` at a time. */
async function readOn(after: string | undefined, body: object = {}, credential = steward) {
  const changes: FeedChange[] = [];
  let cursor = after;
  for (;;) {
    const page = await changesAfter(cursor, { limit: 500, ...body }, credential);
    changes.push(...page.changes);
    if (page.changes.length === 0) return { changes, cursor: page.next ?? undefined };
    cursor = page.next ?? undefined;
  }
}

/** The cursor at the feed's end now. */
const end = async () => (await readOn(undefined)).cursor;

const saveCurrency = async (record: object, cookie = steward) =>
  (await post("/api/save", { entityType: "currency", record }, cookie)).json<{
    entityKeyID: number;
    entityEventID: number;
  }>();

describe("the change feed", () => {
  it("starts with the seeded records, in order, each with a cursor that reads on from it", async () => {
    const first = await changesAfter(undefined, { limit: 3 });
    expect(first.changes).toHaveLength(3);
    expect(first.changes.every((c) => c.action === "create" && c.origin.kind === "seed")).toBe(
      true,
    );
    expect(first.next).toBe(first.changes[2].cursor);
    const fromSecond = await changesAfter(first.changes[0].cursor, { limit: 2 });
    expect(fromSecond.changes.map((c) => c.eventId)).toEqual(
      first.changes.slice(1).map((c) => c.eventId),
    );
  });

  it("gives web changes applied at once: create, update, discontinue, with keys, values and who", async () => {
    const from = await end();
    const created = await saveCurrency({ code: "QFA", name: "Feed A", minor_units: 2 });
    await saveCurrency({ code: "QFB", name: "Feed B", minor_units: 0 });
    const renamed = await post("/api/save", {
      entityType: "currency",
      action: "update",
      record: { code: "QFA", name: "Feed A renamed" },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const deleted = await post("/api/delete", {
      entityType: "currency",
      entityKeyIds: [created.entityKeyID],
    });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const { changes } = await readOn(from);
    expect(changes.map((c) => [c.action, c.key.code])).toEqual([
      ["create", "QFA"],
      ["create", "QFB"],
      ["update", "QFA"],
      ["discontinue", "QFA"],
    ]);
    const [create, , update, discontinue] = changes;
    expect(create).toMatchObject({
      entityType: "currency",
      entityKeyID: created.entityKeyID,
      oldValues: null,
      newValues: { code: "QFA", name: "Feed A", minor_units: 2 },
      proposedBy: "steward",
      approvedBy: "steward",
      origin: { kind: "web", id: null },
    });
    expect(update.oldValues).toEqual({ name: "Feed A" });
    expect(update.newValues).toEqual({ name: "Feed A renamed" });
    expect(discontinue.newValues).toBeNull();
    expect(discontinue.oldValues).toMatchObject({ code: "QFA", name: "Feed A renamed" });
    expect(new Date(create.decidedAt).getTime()).toBeLessThanOrEqual(Date.now());
  });

  it("holds a change back until it is approved, gives it then, and never a rejected one", async () => {
    const from = await end();
    const currency = (await saveCurrency({ code: "QFC", name: "Feed C", minor_units: 2 }))
      .entityKeyID;
    const kept = await post("/api/save", {
      entityType: "country",
      record: { iso2: "QF", name: "Feedland", currency },
    });
    const refused = await post("/api/save", {
      entityType: "country",
      record: { iso2: "QG", name: "Refusedland", currency },
    });
    expect(refused.statusCode, refused.body).toBe(200);
    const onlyCurrency = await readOn(from);
    expect(onlyCurrency.changes.map((c) => c.entityType)).toEqual(["currency"]);

    const reject = await post(
      "/api/reject",
      {
        entityType: "country",
        entityEventIds: [refused.json<{ entityEventID: number }>().entityEventID],
      },
      approver,
    );
    expect(reject.statusCode, reject.body).toBe(200);
    const approve = await post(
      "/api/approve",
      {
        entityType: "country",
        entityEventIds: [kept.json<{ entityEventID: number }>().entityEventID],
      },
      approver,
    );
    expect(approve.statusCode, approve.body).toBe(200);
    const { changes } = await readOn(onlyCurrency.cursor);
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({
      entityType: "country",
      action: "create",
      key: { iso2: "QF" },
      proposedBy: "steward",
      approvedBy: "approver",
    });
  });

  it("gives an upload's changes once approved, naming the upload, and a record brought back as restored", async () => {
    const rows = (codes: string[]) => [
      ["Code", "Name", "Minor units", "Active"],
      ...codes.map((code) => [code, `Upload ${code}`, 2, true]),
    ];
    const send = async (codes: string[], deleteMissing: boolean) => {
      const res = await upload(t, both, await workbookOf("Currencies", rows(codes)), {
        layout: "currencies",
        deleteMissing,
        approveEverything: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res;
    };
    const from = await end();
    await send(["QUA", "QUB"], false);
    const added = await readOn(from);
    expect(added.changes.map((c) => [c.action, c.key.code, c.origin.kind])).toEqual([
      ["create", "QUA", "upload"],
      ["create", "QUB", "upload"],
    ]);
    expect(typeof added.changes[0].origin.id).toBe("number");

    const missing = await post("/api/delete", {
      entityType: "currency",
      entityKeyIds: [added.changes[1].entityKeyID],
    });
    expect(missing.statusCode, missing.body).toBe(200);
    await send(["QUA", "QUB"], false);
    const { changes } = await readOn(added.cursor);
    expect(changes.map((c) => [c.action, c.key.code])).toEqual([
      ["discontinue", "QUB"],
      ["restore", "QUB"],
    ]);
  });

  it("reads only the types asked for, and only types and applications the caller may read", async () => {
    const from = await end();
    await saveCurrency({ code: "QFD", name: "Feed D", minor_units: 1 });
    expect((await readOn(from, { entityTypes: ["country"] })).changes).toEqual([]);
    expect((await readOn(from, { entityTypes: ["currency"] })).changes).toHaveLength(1);

    const outsider = await t.login("outsider", TEST_USER_PASSWORD);
    const refused = await post("/api/changes", {}, outsider);
    expect(refused.statusCode).toBe(403);
    const unknown = await post("/api/changes", { entityTypes: ["planet"] });
    expect(unknown.statusCode).toBe(404);
    const dictionary = await t.post("/api/changes", { context: "reference-nope" }, steward);
    expect(dictionary.statusCode).toBe(404);
  });

  it("is open to a read token", async () => {
    const created = await post("/api/tokens/create", {
      name: "feed",
      scope: "read",
      expiresInDays: 1,
    });
    const token = `Bearer ${created.json<CreatedApiToken>().secret}`;
    const page = await changesAfter(undefined, { limit: 1 }, token);
    expect(page.changes).toHaveLength(1);
  });

  it("refuses a malformed cursor and one it never gave, with 400", async () => {
    for (const after of ["abc", "1-2-3", "-1-1", "", "99999999-1", "5-3000000000"]) {
      const res = await post("/api/changes", { after });
      expect(res.statusCode, after).toBe(400);
      expect(messageOf(res)).toMatch(/cursor/);
    }
    const real = (await changesAfter(undefined, { limit: 1 })).next as string;
    const [position] = real.split("-");
    const res = await post("/api/changes", { after: `${position}-999999999` });
    expect(res.statusCode).toBe(400);
  });

  it.runIf(testDatabaseKind() === "postgres")(
    "gives a change that commits after a later-started one has been read, missing neither",
    async () => {
      const from = await end();
      const { rows } = await sql<{ entity_key_id: string }>`
        select entity_key_id from ctx_reference.currency where not is_deleted order by entity_key_id limit 2`.execute(
        t.database.db,
      );
      const [early, late] = rows.map((r) => r.entity_key_id);
      const approvedChange = (keyId: string, name: string) => sql`
        insert into app.events (context, entity_type, entity_key_id, action, status, new_values,
          source, created_by, decided_by, decided_at)
        values ('reference', 'currency', ${keyId}, 'Update', 'approved',
          ${JSON.stringify({ name })}::jsonb, 'web', 'steward', 'steward', now())`;
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let started = () => {};
      const written = new Promise<void>((resolve) => {
        started = resolve;
      });
      // The first transaction writes first (its ids are the lower ones) and commits last.
      const first = t.database.db.transaction().execute(async (tx) => {
        await approvedChange(early, "first").execute(tx);
        started();
        await held;
      });
      await written;
      await t.database.db.transaction().execute(async (tx) => {
        await approvedChange(late, "second").execute(tx);
      });
      const beforeFirst = await readOn(from);
      expect(beforeFirst.changes.map((c) => c.newValues?.name)).toEqual(["second"]);
      release();
      await first;
      const afterFirst = await readOn(beforeFirst.cursor);
      expect(afterFirst.changes.map((c) => c.newValues?.name)).toEqual(["first"]);
    },
  );
});
