import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { listRecords } from "../testing/records-client.ts";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t?.close());

/** A new user who reads the reference data, signed in: its session cookie. */
const signedIn = async (username: string) => {
  await t.createUser({ username, roles: [{ context: "reference", role: "viewer" }] });
  return t.login(username, TEST_USER_PASSWORD);
};

/**
 * The texts of the statements a call sends to the database, seen at the app's query executors (the
 * lists' reads and the search have their own on PostgreSQL: Database.reads, Database.genericReads).
 */
async function textsOf(call: () => Promise<unknown>): Promise<string[]> {
  const generic = await t.database.genericReads(async (db) => db);
  const executors = [...new Set([t.database.db, t.database.reads, generic])];
  const spies = executors.map((d) => vi.spyOn(d.getExecutor(), "executeQuery"));
  try {
    await call();
    return spies.flatMap((spy) => spy.mock.calls.map(([query]) => query.sql));
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
}

/** A list call reuses the caller of the session's earlier call and confirms it in its own statement. */
describe("a list call checks its caller in its own statement", () => {
  const list = (cookie: string, query: Record<string, unknown> = {}) =>
    t.post("/api/entity", { context: "reference", entityType: "currency", ...query }, cookie);

  const statementsOf = async (call: () => Promise<unknown>) => (await textsOf(call)).length;

  it("answers the same page with one statement less once the session is known", async () => {
    const cookie = await signedIn("checked");
    let first: unknown;
    let again: unknown;
    const firstCall = await statementsOf(async () => {
      first = (await listRecords(t, cookie, { entityType: "currency" })).data;
    });
    const nextCall = await statementsOf(async () => {
      again = (await listRecords(t, cookie, { entityType: "currency" })).data;
    });
    expect(again).toEqual(first);
    expect((first as unknown[]).length).toBeGreaterThan(0);
    expect(nextCall).toBe(firstCall - 1);
  });

  it("refuses the next call once the session ends, or the user is removed, elsewhere", async () => {
    const ended = await signedIn("ended");
    expect((await list(ended)).statusCode).toBe(200);
    // What a logout on another instance does: the row goes, nothing tells this instance.
    await sql`delete from app.sessions s using app.users u
      where u.user_id = s.user_id and u.username = 'ended'`.execute(t.database.db);
    expect((await list(ended)).statusCode).toBe(401);

    const removed = await signedIn("removed");
    expect((await list(removed)).statusCode).toBe(200);
    await sql`update app.users set is_deleted = true where username = 'removed'`.execute(
      t.database.db,
    );
    expect((await list(removed)).statusCode).toBe(401);
  });

  it("follows a role taken away or given elsewhere at the next call", async () => {
    const cookie = await signedIn("moved");
    expect((await list(cookie)).statusCode).toBe(200);
    await sql`delete from app.user_roles where user_id =
      (select user_id from app.users where username = 'moved')`.execute(t.database.db);
    expect((await list(cookie)).statusCode).toBe(403);
    await sql`insert into app.user_roles (user_id, context, role, granted_by)
      select user_id, 'reference', 'viewer', 'admin' from app.users where username = 'moved'`.execute(
      t.database.db,
    );
    expect((await list(cookie)).statusCode).toBe(200);
  });

  it("does the same for an API token, and refuses it once revoked elsewhere", async () => {
    const cookie = await signedIn("pipeline");
    const created = await t.post(
      "/api/tokens/create",
      { name: "nightly", scope: "read", expiresInDays: 1 },
      cookie,
    );
    expect(created.statusCode, created.body).toBe(200);
    const { secret } = created.json() as { secret: string };
    const bearer = `Bearer ${secret}`;
    const firstCall = await statementsOf(async () => {
      expect((await list(bearer)).statusCode).toBe(200);
    });
    const nextCall = await statementsOf(async () => {
      expect((await list(bearer)).statusCode).toBe(200);
    });
    // The first call also writes the token's first use; the next sends the page and the count only.
    expect(firstCall).toBeGreaterThan(2);
    expect(nextCall).toBe(2);
    // A read token known from a list call is still refused a change.
    const save = await t.post(
      "/api/save",
      { context: "reference", entityType: "currency", attrValues: { code: "XTS" } },
      bearer,
    );
    expect(save.statusCode).toBe(403);
    await sql`update app.api_tokens set revoked_at = now(), revoked_by = 'admin'
      where name = 'nightly'`.execute(t.database.db);
    expect((await list(bearer)).statusCode).toBe(401);
  });

  it("answers an empty page with no more statements than a page with rows, and still refuses a role gone", async () => {
    const cookie = await signedIn("nothing");
    const named = (name: string) => ({
      rowConstraints: [{ attribute: "code", operator: "=", values: [name] }],
    });
    const nothing = named("none");
    expect((await list(cookie)).statusCode).toBe(200);
    let found: unknown;
    let empty: unknown;
    const withRows = await statementsOf(async () => {
      found = (await list(cookie, named("EUR"))).json();
    });
    const withNone = await statementsOf(async () => {
      empty = (await list(cookie, nothing)).json();
    });
    expect(found).toMatchObject({ querySize: 1 });
    expect(empty).toMatchObject({ data: [], querySize: 0 });
    // The page and the count; a page with rows reads what its rows need besides.
    expect(withNone).toBeLessThanOrEqual(withRows);
    await sql`delete from app.user_roles where user_id =
      (select user_id from app.users where username = 'nothing')`.execute(t.database.db);
    expect((await list(cookie, nothing)).statusCode).toBe(403);
  });

  it("answers an empty page, and a refused query, as an unchecked call does", async () => {
    const cookie = await signedIn("empty");
    expect((await list(cookie)).statusCode).toBe(200);
    const none = await list(cookie, {
      rowConstraints: [{ attribute: "name", operator: "=", values: ["no such currency"] }],
    });
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toMatchObject({ data: [], querySize: 0 });
    const unknown = await list(cookie, { rowOrders: [{ attribute: "nope", asc: true }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe("rowOrders: unknown attribute 'nope' of 'currency'");
  });
});

/** The search box asks at each key typed: it too reuses the session's caller and checks it in its statement. */
describe("a search checks its caller in its own statement", () => {
  const search = (cookie: string, query: string) =>
    t.post("/api/search", { query, pageSize: 4, perType: true }, cookie);

  /** The statements a call sends: how many read the session, how many search. */
  async function statementsOf(call: () => Promise<unknown>) {
    const texts = await textsOf(call);
    return {
      sessionReads: texts.filter((text) => text.includes('"sessionHash"')).length,
      searches: texts.filter((text) => text.includes("ranked as")).length,
    };
  }

  it("answers the same hits without reading the session once it is known", async () => {
    const cookie = await signedIn("typist");
    let first: unknown;
    let again: unknown;
    const firstCall = await statementsOf(async () => {
      first = (await search(cookie, "euro")).json();
    });
    const nextCall = await statementsOf(async () => {
      again = (await search(cookie, "euro")).json();
    });
    expect((first as { hits: { label: string }[] }).hits[0].label).toBe("EUR - Euro");
    expect(again).toEqual(first);
    expect(firstCall).toEqual({ sessionReads: 1, searches: 1 });
    expect(nextCall).toEqual({ sessionReads: 0, searches: 1 });
    // No hit, and a query too short to search: answered as for any caller.
    const none = await search(cookie, "qqqxz");
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toMatchObject({ hits: [], groups: [], total: 0 });
    const short = await search(cookie, "e");
    expect(short.statusCode, short.body).toBe(200);
    expect(short.json()).toMatchObject({ hits: [], total: 0 });
  });

  it("refuses the next search once the session ends elsewhere, and follows a role taken away", async () => {
    const ended = await signedIn("gone");
    expect((await search(ended, "euro")).statusCode).toBe(200);
    await sql`delete from app.sessions s using app.users u
      where u.user_id = s.user_id and u.username = 'gone'`.execute(t.database.db);
    expect((await search(ended, "euro")).statusCode).toBe(401);
    expect((await search(ended, "e")).statusCode).toBe(401);

    const demoted = await signedIn("demoted");
    expect((await search(demoted, "euro")).json().total).toBeGreaterThan(0);
    await sql`delete from app.user_roles where user_id =
      (select user_id from app.users where username = 'demoted')`.execute(t.database.db);
    const after = await search(demoted, "euro");
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json()).toMatchObject({ hits: [], groups: [], total: 0 });
  });
});
