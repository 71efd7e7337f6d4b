import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";

let t: TestApp;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "roleadmin", isadmin: true });
  await t.createUser({ username: "unknowns" });
  adminCookie = await t.login("roleadmin", TEST_USER_PASSWORD);
});
afterAll(() => t.close());

async function assignments(username: string) {
  return t.database.db
    .selectFrom("app.user_roles as r")
    .innerJoin("app.users as u", "u.user_id", "r.user_id")
    .select(["r.context", "r.role", "r.granted_by"])
    .where("u.username", "=", username)
    .orderBy("r.context")
    .orderBy("r.role")
    .execute();
}

async function contextNamesOf(username: string): Promise<string[]> {
  const cookie = await t.login(username, TEST_USER_PASSWORD);
  const res = await t.post("/api/contexts", {}, cookie);
  expect(res.statusCode).toBe(200);
  return (res.json() as { name: string }[]).map((c) => c.name);
}

describe("POST /api/getroles", () => {
  it("lists every role of every context to administrators only", async () => {
    await t.createUser({ username: "reader" });
    const cookie = await t.login("reader", TEST_USER_PASSWORD);
    const refused = await t.post("/api/getroles", {}, cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ message: "You are not allowed to do this" });
    const res = await t.post("/api/getroles", {}, adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        name: "dictionary_viewer",
        uiname: "Dictionary viewer",
        uidescription: "Reads the data dictionary",
        context: "Data Dictionary",
      },
      expect.objectContaining({ name: "dictionary_editor", context: "Data Dictionary" }),
      expect.objectContaining({ name: "viewer", context: "reference" }),
      expect.objectContaining({ name: "steward", context: "reference" }),
      expect.objectContaining({ name: "approver", context: "reference" }),
    ]);
  });
});

describe("POST /api/getrolesbycontext", () => {
  it("lists the roles of one context in the model's order", async () => {
    const res = await t.post("/api/getrolesbycontext", { context: "reference" }, adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: { name: string }) => r.name)).toEqual([
      "viewer",
      "steward",
      "approver",
    ]);
    expect(res.json()[1]).toEqual({
      name: "steward",
      uiname: "Steward",
      uidescription: "Reads, creates, edits and deletes reference data",
      context: "reference",
    });
  });

  it("answers 404 for an unknown context and 400 without one", async () => {
    const res = await t.post("/api/getrolesbycontext", { context: "nope" }, adminCookie);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Unknown application 'nope'" });
    expect((await t.post("/api/getrolesbycontext", {}, adminCookie)).statusCode).toBe(400);
  });
});

describe("POST /api/getrolesbyusername", () => {
  it("lists the roles the user holds in that context only", async () => {
    await t.createUser({
      username: "holder",
      roles: [
        { context: "reference", role: "approver" },
        { context: "reference", role: "viewer" },
        { context: "Data Dictionary", role: "dictionary_viewer" },
      ],
    });
    const res = await t.post(
      "/api/getrolesbyusername",
      { context: "reference", username: "holder" },
      adminCookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().map((r: { name: string }) => r.name)).toEqual(["viewer", "approver"]);
  });

  it("answers 404 for an unknown user or context", async () => {
    const user = await t.post(
      "/api/getrolesbyusername",
      { context: "reference", username: "ghost" },
      adminCookie,
    );
    expect(user.statusCode).toBe(404);
    expect(user.json()).toEqual({ message: "Unknown user 'ghost'" });
    const context = await t.post(
      "/api/getrolesbyusername",
      { context: "nope", username: "roleadmin" },
      adminCookie,
    );
    expect(context.statusCode).toBe(404);
  });
});

describe("POST /api/addrole and /api/removerole", () => {
  it("adding a role makes /api/contexts list the context; removing the last role drops it", async () => {
    await t.createUser({ username: "newcomer" });
    expect(await contextNamesOf("newcomer")).toEqual([]);

    const body = { context: "reference", username: "newcomer", role: "steward" };
    const added = await t.post("/api/addrole", body, adminCookie);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toEqual({
      Msg: "Granted the role 'Steward' in 'Reference Data' to 'newcomer'",
    });
    expect(await assignments("newcomer")).toEqual([
      { context: "reference", role: "steward", granted_by: "roleadmin" },
    ]);
    expect(await contextNamesOf("newcomer")).toEqual(["reference"]);

    const removed = await t.post("/api/removerole", body, adminCookie);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({
      Msg: "Removed the role 'Steward' in 'Reference Data' from 'newcomer'",
    });
    expect(await assignments("newcomer")).toEqual([]);
    expect(await contextNamesOf("newcomer")).toEqual([]);
  });

  it("keeps the context while another role remains", async () => {
    await t.createUser({
      username: "tworoles",
      roles: [
        { context: "reference", role: "viewer" },
        { context: "reference", role: "approver" },
      ],
    });
    const body = { context: "reference", username: "tworoles", role: "viewer" };
    expect((await t.post("/api/removerole", body, adminCookie)).statusCode).toBe(200);
    expect(await contextNamesOf("tworoles")).toEqual(["reference"]);
  });

  it("adding a held role or removing one not held changes nothing and says so", async () => {
    await t.createUser({ username: "steady", roles: [{ context: "reference", role: "viewer" }] });
    const again = await t.post(
      "/api/addrole",
      { context: "reference", username: "steady", role: "viewer" },
      adminCookie,
    );
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({
      Msg: "'steady' already holds the role 'Viewer' in 'Reference Data'",
    });
    const notHeld = await t.post(
      "/api/removerole",
      { context: "reference", username: "steady", role: "approver" },
      adminCookie,
    );
    expect(notHeld.statusCode).toBe(200);
    expect(notHeld.json()).toEqual({
      Msg: "'steady' did not hold the role 'Approver' in 'Reference Data'",
    });
    expect(await assignments("steady")).toEqual([
      { context: "reference", role: "viewer", granted_by: "test" },
    ]);
  });

  it.each([
    [{ context: "nope", username: "unknowns", role: "viewer" }, "Unknown application 'nope'"],
    [
      { context: "reference", username: "unknowns", role: "dictionary_viewer" },
      "Unknown role 'dictionary_viewer' in 'Reference Data'",
    ],
    [{ context: "reference", username: "ghost", role: "viewer" }, "Unknown user 'ghost'"],
  ])("answers 404 and writes nothing for %j", async (body, message) => {
    for (const url of ["/api/addrole", "/api/removerole"]) {
      const res = await t.post(url, body, adminCookie);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toEqual({ message });
    }
    expect(await assignments("unknowns")).toEqual([]);
  });

  it("answers 400 when a field is missing", async () => {
    const res = await t.post("/api/addrole", { context: "reference", username: "x" }, adminCookie);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(/role/);
  });

  it("answers 403 to a user who is not an administrator and changes nothing", async () => {
    await t.createUser({ username: "climber", roles: [{ context: "reference", role: "viewer" }] });
    const cookie = await t.login("climber", TEST_USER_PASSWORD);
    const res = await t.post(
      "/api/addrole",
      { context: "reference", username: "climber", role: "steward" },
      cookie,
    );
    expect(res.statusCode).toBe(403);
    expect(await assignments("climber")).toEqual([
      { context: "reference", role: "viewer", granted_by: "test" },
    ]);
  });

  it("a removed user cannot be given a role", async () => {
    await t.createUser({ username: "departed" });
    await t.post("/api/removeuser", { username: "departed" }, adminCookie);
    const res = await t.post(
      "/api/addrole",
      { context: "reference", username: "departed", role: "viewer" },
      adminCookie,
    );
    expect(res.statusCode).toBe(404);
    expect(await assignments("departed")).toEqual([]);
  });
});
