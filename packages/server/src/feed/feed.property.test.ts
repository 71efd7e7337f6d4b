import { setTimeout } from "node:timers/promises";
import type { ChangesPage, FeedChange, ScalarValue } from "@ledgerline/contract";
import fc from "fast-check";
import type { LightMyRequestResponse } from "fastify";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { App } from "../http/types.ts";
import {
  createTestApp,
  credentialHeaders,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { workbookOf } from "../testing/xlsx-files.ts";

// Random web saves, deletions, uploads (applied at once or left pending) and decisions on the
// currencies, sent in two lanes at once (on PostgreSQL each lane to a server instance of its own
// on the one database) while a reader follows the change feed. Afterwards the feed must hold every
// change approved meanwhile, each once, and replaying it on the records as they were must give the
// records as they are.

const CODES = ["XAA", "XBB", "XCC", "XDD"];
const NAMES = ["Alpha", "Beta", "Gamma"];
const STORED = ["code", "name", "minor_units", "active"] as const;

type Values = Record<string, ScalarValue>;
type Op =
  | { kind: "save"; code: string; name: string; minorUnits: number }
  | { kind: "delete"; code: string }
  | { kind: "upload"; codes: string[]; name: string; deleteMissing: boolean; apply: boolean }
  | { kind: "decide"; approve: boolean };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant("save" as const),
    code: fc.constantFrom(...CODES),
    name: fc.constantFrom(...NAMES),
    minorUnits: fc.constantFrom(0, 2, 3),
  }),
  fc.record({ kind: fc.constant("delete" as const), code: fc.constantFrom(...CODES) }),
  fc.record({
    kind: fc.constant("upload" as const),
    codes: fc.subarray(CODES, { minLength: 1 }),
    name: fc.constantFrom(...NAMES),
    deleteMissing: fc.boolean(),
    apply: fc.boolean(),
  }),
  fc.record({ kind: fc.constant("decide" as const), approve: fc.boolean() }),
);

let t: TestApp;
let lanes: App[];
let closeSecond: (() => Promise<void>) | undefined;
let steward: string;
let approver: string;

beforeAll(async () => {
  t = await createTestApp({ env: { DEMO: "0" } });
  await t.createUser({
    username: "both",
    roles: [
      { context: "reference", role: "steward" },
      { context: "reference", role: "approver" },
    ],
  });
  await t.createUser({ username: "approver", roles: [{ context: "reference", role: "approver" }] });
  steward = await t.login("both", TEST_USER_PASSWORD);
  approver = await t.login("approver", TEST_USER_PASSWORD);
  if (testDatabaseKind() === "postgres") {
    const second = await t.secondInstance();
    closeSecond = second.close;
    lanes = [t.app, second.app];
  } else lanes = [t.app, t.app];
});
afterAll(async () => {
  await closeSecond?.();
  await t.close();
});

const call = (app: App, url: string, body: object, cookie: string) =>
  app.inject({
    method: "POST",
    url,
    headers: credentialHeaders(cookie),
    payload: { context: "reference", ...body },
  });

async function uploadTo(
  app: App,
  op: Extract<Op, { kind: "upload" }>,
): Promise<LightMyRequestResponse> {
  const rows = [
    ["Code", "Name", "Minor units", "Active"],
    ...op.codes.map((c) => [c, op.name, 2, true]),
  ];
  const form = new FormData();
  form.set("context", "reference");
  form.set("layout", "currencies");
  form.set("deleteMissing", String(op.deleteMissing));
  form.set("approveEverything", String(op.apply));
  form.set("confirmMassMissing", "true");
  form.set(
    "uploadfile",
    new Blob([new Uint8Array(await workbookOf("Currencies", rows))]),
    "c.xlsx",
  );
  const request = new Request("http://localhost/api/upload", { method: "POST", body: form });
  return app.inject({
    method: "POST",
    url: "/api/upload",
    headers: {
      ...credentialHeaders(steward),
      "content-type": request.headers.get("content-type") as string,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}

async function keyOf(code: string): Promise<number | undefined> {
  const { rows } = await sql<{ id: string }>`
    select entity_key_id as id from ctx_reference.currency
    where code = ${code} and not is_deleted and not is_pending_new`.execute(t.database.db);
  return rows[0] ? Number(rows[0].id) : undefined;
}

async function runOp(app: App, o: Op): Promise<void> {
  switch (o.kind) {
    case "save": {
      const record = { code: o.code, name: o.name, minor_units: o.minorUnits };
      await call(app, "/api/save", { entityType: "currency", record }, steward);
      return;
    }
    case "delete": {
      const key = await keyOf(o.code);
      if (key)
        await call(app, "/api/delete", { entityType: "currency", entityKeyIds: [key] }, steward);
      return;
    }
    case "upload":
      await uploadTo(app, o);
      return;
    case "decide": {
      const { rows } = await sql<{ id: string }>`
        select event_id as id from app.events
        where context = 'reference' and entity_type = 'currency' and status = 'pending'`.execute(
        t.database.db,
      );
      if (rows.length === 0) return;
      const entityEventIds = rows.map((r) => Number(r.id));
      await call(
        app,
        o.approve ? "/api/approve" : "/api/reject",
        { entityType: "currency", entityEventIds },
        approver,
      );
    }
  }
}

/** The currencies as stored: visible ones and discontinued ones, by key id. */
async function records(): Promise<Map<number, Values & { deleted: boolean }>> {
  const { rows } = await sql<Values & { id: string; is_deleted: boolean }>`
    select entity_key_id as id, code, name, minor_units, active, is_deleted
    from ctx_reference.currency where not is_pending_new`.execute(t.database.db);
  return new Map(
    rows.map(({ id, is_deleted, ...values }) => [Number(id), { ...values, deleted: is_deleted }]),
  );
}

async function feedAfter(after: string | undefined): Promise<ChangesPage> {
  const res = await call(
    t.app,
    "/api/changes",
    { entityTypes: ["currency"], after, limit: 50 },
    approver,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ChangesPage>();
}

/** Replays changes on records, as a downstream copy would. */
function replay(start: Map<number, Values & { deleted: boolean }>, changes: readonly FeedChange[]) {
  const copy = new Map([...start].map(([id, v]) => [id, { ...v }]));
  for (const c of changes) {
    const blank = Object.fromEntries(STORED.map((a) => [a, null])) as Values;
    const current = copy.get(c.entityKeyID) ?? { ...blank, deleted: false };
    if (c.action === "discontinue") current.deleted = true;
    else {
      if (c.action === "restore") current.deleted = false;
      Object.assign(current, c.newValues);
    }
    copy.set(c.entityKeyID, current);
  }
  return copy;
}

describe("the change feed, followed while changes commit in two lanes", () => {
  it("holds every approved change once, and replays into the records as they are", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 10 }), async (ops) => {
        let cursor: string | undefined;
        for (
          let page = await feedAfter(undefined);
          page.changes.length > 0;
          page = await feedAfter(cursor)
        )
          cursor = page.next ?? undefined;
        const start = await records();
        const { rows: startRows } = await sql<{ position: string }>`
          select coalesce(max(position), 0) as position from app.feed_commits`.execute(
          t.database.db,
        );

        const read: FeedChange[] = [];
        let done = false;
        const follow = async () => {
          for (let last = false; ; ) {
            const page = await feedAfter(cursor);
            read.push(...page.changes);
            cursor = page.next ?? cursor;
            if (page.changes.length === 0) {
              if (last) return;
              last = done;
              // A reader polls; a busy loop would keep PGlite's one session from the writers.
              await setTimeout(20);
            }
          }
        };
        const lane = (n: number) => async () => {
          for (const o of ops.filter((_, i) => i % 2 === n)) await runOp(lanes[n], o);
        };
        const reader = follow();
        await Promise.all([lane(0)(), lane(1)()]);
        done = true;
        await reader;

        const ids = read.map((c) => c.eventId);
        expect(new Set(ids).size).toBe(ids.length);
        const { rows: approved } = await sql<{ id: string }>`
          select e.event_id as id from app.events e join app.feed_commits c on c.xid = e.approved_xid
          where e.context = 'reference' and e.entity_type = 'currency' and e.status = 'approved'
            and c.position > ${startRows[0].position}
          order by c.position, e.event_id`.execute(t.database.db);
        expect(ids).toEqual(approved.map((r) => Number(r.id)));
        const replayed = replay(start, read);
        const now = await records();
        expect(Object.fromEntries(replayed)).toEqual(Object.fromEntries(now));
      }),
      { numRuns: 10 },
    );
  }, 240_000);
});
