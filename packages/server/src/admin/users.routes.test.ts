import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";

let t: TestApp;
let superCookie: string;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  superCookie = await t.login("admin", ADMIN_PASSWORD);
  await t.createUser({ username: "plainadmin", isadmin: true });
  adminCookie = await t.login("plainadmin", TEST_USER_PASSWORD);
});
afterAll(() => t.close());

function newUser(username: string, extra: Record<string, unknown> = {}) {
  return {
    username,
    name: `${username} name`,
    email: `${username}@example.com`,
    password: "a-good-password",
    isadmin: false,
    ...extra,
  };
}

function editOf(username: string, extra: Record<string, unknown> = {}) {
  return {
    username,
    name: `${username} name`,
    email: `${username}@example.com`,
    password: null,
    isadmin: false,
    ...extra,
  };
}

/** The stored row, removed users included (the test checks what a refused call left). */
function row(username: string) {
  return t.database.db
    .selectFrom("app.users")
    .selectAll()
    .where("username", "=", username)
    .executeTakeFirst();
}

async function userCount(): Promise<number> {
  const rows = await t.database.db.selectFrom("app.users").select("user_id").execute();
  return rows.length;
}

async function canSignIn(username: string, password: string): Promise<boolean> {
  const res = await t.app.inject({
    method: "POST",
    url: "/auth/login",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ username, password }).toString(),
  });
  return res.statusCode === 200;
}

async function sessionAlive(cookie: string): Promise<boolean> {
  return (await t.post("/api/ping", {}, cookie)).statusCode === 200;
}

describe("POST /api/getusers", () => {
  it("lists the active users by username with name, email and isadmin only", async () => {
    await t.createUser({ username: "listed" });
    const res = await t.post("/api/getusers", {}, adminCookie);
    expect(res.statusCode).toBe(200);
    const list = res.json() as Record<string, unknown>[];
    const names = list.map((u) => u.username);
    expect(names).toEqual([...names].sort());
    expect(list.find((u) => u.username === "listed")).toEqual({
      username: "listed",
      name: "listed name",
      email: "listed@example.com",
      isadmin: false,
    });
    expect(res.body).not.toMatch(/password|argon/i);
  });

  it("answers 403 to a user who is not an administrator", async () => {
    await t.createUser({ username: "notadmin" });
    const cookie = await t.login("notadmin", TEST_USER_PASSWORD);
    expect((await t.post("/api/getusers", {}, cookie)).statusCode).toBe(403);
  });
});

describe("POST /api/createuser", () => {
  it("creates a user who can then sign in", async () => {
    const res = await t.post("/api/createuser", newUser("jane"), adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Msg: "User 'jane' created" });
    expect(await row("jane")).toMatchObject({
      name: "jane name",
      email: "jane@example.com",
      isadmin: false,
      issuperadmin: false,
      isdev: false,
      is_deleted: false,
    });
    expect(await canSignIn("jane", "a-good-password")).toBe(true);
  });

  it.each([
    ["username", { username: "" }],
    ["username", { username: "   " }],
    ["name", { name: "" }],
    ["email", { email: " " }],
  ])("answers 400 'required field' for an empty %s and writes nothing", async (field, patch) => {
    const before = await userCount();
    const res = await t.post("/api/createuser", newUser("empty-field", patch), adminCookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: `${field}: required field` });
    expect(await userCount()).toBe(before);
  });

  it("answers 'required field' for a missing field too", async () => {
    const { email: _, ...withoutEmail } = newUser("no-email");
    const res = await t.post("/api/createuser", withoutEmail, adminCookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "email: required field" });
  });

  it("answers 'username unavailable' for a taken name, compared case-insensitively", async () => {
    await t.createUser({ username: "taken" });
    const before = await userCount();
    for (const username of ["taken", "TAKEN", " Taken "]) {
      const res = await t.post("/api/createuser", newUser(username), adminCookie);
      expect(res.statusCode, username).toBe(400);
      expect(res.json()).toEqual({ message: "username unavailable" });
    }
    expect(await userCount()).toBe(before);
  });

  it("gives the name to one of two administrators creating it at the same time", async () => {
    const answers = await Promise.all([
      t.post("/api/createuser", newUser("racer"), adminCookie),
      t.post("/api/createuser", newUser("RACER"), superCookie),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(answers.find((r) => r.statusCode === 400)?.json()).toEqual({
      message: "username unavailable",
    });
  });

  it("keeps the name of a removed user unavailable", async () => {
    await t.createUser({ username: "gone" });
    expect((await t.post("/api/removeuser", { username: "gone" }, adminCookie)).statusCode).toBe(
      200,
    );
    const res = await t.post("/api/createuser", newUser("gone"), adminCookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "username unavailable" });
  });

  it("answers 400 for a password shorter than 8 or longer than 256 characters", async () => {
    const short = await t.post(
      "/api/createuser",
      newUser("shortpw", { password: "1234567" }),
      adminCookie,
    );
    expect(short.statusCode).toBe(400);
    expect(short.json()).toEqual({ message: "Password must have at least 8 characters" });
    const long = await t.post(
      "/api/createuser",
      newUser("longpw", { password: "x".repeat(257) }),
      adminCookie,
    );
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ message: "Password must have at most 256 characters" });
    expect(await row("shortpw")).toBeUndefined();
    expect(await row("longpw")).toBeUndefined();
    // Eight characters, and not in the breached list ('12345678' is).
    const exact = await t.post(
      "/api/createuser",
      newUser("okpw", { password: "k7#vq2zm" }),
      adminCookie,
    );
    expect(exact.statusCode).toBe(200);
  });

  it("answers 400 naming the breach list and creates nobody for a breached password", async () => {
    for (const password of ["12345678", "Password1"]) {
      const res = await t.post("/api/createuser", newUser("breachedpw", { password }), adminCookie);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        message: "This password appears in a list of breached passwords; choose another",
      });
    }
    expect(await row("breachedpw")).toBeUndefined();
  });

  it("answers 403 and writes nothing when an administrator who is not super sets isadmin", async () => {
    const res = await t.post("/api/createuser", newUser("wannabe", { isadmin: true }), adminCookie);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: "Only super administrators may grant the administrator right",
    });
    expect(await row("wannabe")).toBeUndefined();
  });

  it("lets a super administrator create an administrator", async () => {
    const res = await t.post(
      "/api/createuser",
      newUser("newadmin", { isadmin: true }),
      superCookie,
    );
    expect(res.statusCode).toBe(200);
    expect(await row("newadmin")).toMatchObject({ isadmin: true, issuperadmin: false });
  });
});

describe("POST /api/updateuser", () => {
  it("changes name and email and keeps the password when it is null", async () => {
    await t.createUser({ username: "edited" });
    const res = await t.post(
      "/api/updateuser",
      editOf("edited", { name: "New Name", email: "new@example.com" }),
      adminCookie,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Msg: "User 'edited' saved" });
    expect(await row("edited")).toMatchObject({ name: "New Name", email: "new@example.com" });
    expect(await canSignIn("edited", TEST_USER_PASSWORD)).toBe(true);
  });

  it("a new password ends that user's sessions", async () => {
    await t.createUser({ username: "repass" });
    const theirs = await t.login("repass", TEST_USER_PASSWORD);
    const res = await t.post(
      "/api/updateuser",
      editOf("repass", { password: "brand-new-password" }),
      adminCookie,
    );
    expect(res.statusCode).toBe(200);
    expect(await sessionAlive(theirs)).toBe(false);
    expect(await canSignIn("repass", TEST_USER_PASSWORD)).toBe(false);
    expect(await canSignIn("repass", "brand-new-password")).toBe(true);
    expect(await sessionAlive(adminCookie)).toBe(true);
  });

  it("changing one's own password keeps the caller's session and ends the others", async () => {
    await t.createUser({ username: "selfpass", isadmin: true });
    const mine = await t.login("selfpass", TEST_USER_PASSWORD);
    const other = await t.login("selfpass", TEST_USER_PASSWORD);
    const res = await t.post(
      "/api/updateuser",
      editOf("selfpass", { isadmin: true, password: "my-own-new-password" }),
      mine,
    );
    expect(res.statusCode).toBe(200);
    expect(await sessionAlive(mine)).toBe(true);
    expect(await sessionAlive(other)).toBe(false);
  });

  it("answers 403 and changes nothing when an administrator who is not super changes isadmin", async () => {
    await t.createUser({ username: "promote-me" });
    const res = await t.post(
      "/api/updateuser",
      editOf("promote-me", { name: "Changed", isadmin: true }),
      adminCookie,
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({
      message: "Only super administrators may change the administrator right",
    });
    expect(await row("promote-me")).toMatchObject({ isadmin: false, name: "promote-me name" });
  });

  it("lets a super administrator grant and take the administrator right", async () => {
    await t.createUser({ username: "promoted" });
    const up = await t.post("/api/updateuser", editOf("promoted", { isadmin: true }), superCookie);
    expect(up.statusCode).toBe(200);
    expect((await row("promoted"))?.isadmin).toBe(true);
    const down = await t.post("/api/updateuser", editOf("promoted"), superCookie);
    expect(down.statusCode).toBe(200);
    expect((await row("promoted"))?.isadmin).toBe(false);
  });

  it("keeps isadmin when the request leaves it out", async () => {
    await t.createUser({ username: "keepflag", isadmin: true });
    const { isadmin: _, ...body } = editOf("keepflag", { name: "Kept" });
    const res = await t.post("/api/updateuser", body, adminCookie);
    expect(res.statusCode).toBe(200);
    expect(await row("keepflag")).toMatchObject({ isadmin: true, name: "Kept" });
  });

  it("answers 403 when an administrator who is not super edits a super administrator", async () => {
    const res = await t.post(
      "/api/updateuser",
      editOf("admin", { name: "Hijacked", isadmin: true, password: "hijacked-password" }),
      adminCookie,
    );
    expect(res.statusCode).toBe(403);
    expect(await row("admin")).toMatchObject({ name: "Administrator" });
    expect(await sessionAlive(superCookie)).toBe(true);
  });

  it("refuses to take away the caller's own administrator right", async () => {
    const res = await t.post(
      "/api/updateuser",
      editOf("admin", { name: "Administrator" }),
      superCookie,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "You cannot take away your own administrator right" });
    expect((await row("admin"))?.isadmin).toBe(true);
  });

  it("answers 400 'required field' for an empty name or email", async () => {
    await t.createUser({ username: "needsname" });
    const res = await t.post("/api/updateuser", editOf("needsname", { name: "" }), adminCookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "name: required field" });
    const email = await t.post("/api/updateuser", editOf("needsname", { email: "" }), adminCookie);
    expect(email.json()).toEqual({ message: "email: required field" });
    expect(await row("needsname")).toMatchObject({ name: "needsname name" });
  });

  it("answers 400 and keeps the password when the new one is too short", async () => {
    await t.createUser({ username: "weakpass" });
    const res = await t.post(
      "/api/updateuser",
      editOf("weakpass", { password: "short" }),
      adminCookie,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "Password must have at least 8 characters" });
    expect(await canSignIn("weakpass", TEST_USER_PASSWORD)).toBe(true);
  });

  it("answers 400 and keeps the password when the new one is a breached password", async () => {
    await t.createUser({ username: "breachedpass" });
    const res = await t.post(
      "/api/updateuser",
      editOf("breachedpass", { password: "iloveyou1" }),
      adminCookie,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      message: "This password appears in a list of breached passwords; choose another",
    });
    expect(await canSignIn("breachedpass", TEST_USER_PASSWORD)).toBe(true);
    expect(await canSignIn("breachedpass", "iloveyou1")).toBe(false);
  });

  it("answers 404 for an unknown or removed user", async () => {
    const res = await t.post("/api/updateuser", editOf("nobody-at-all"), adminCookie);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Unknown user 'nobody-at-all'" });
    await t.createUser({ username: "removed-then-edited" });
    await t.post("/api/removeuser", { username: "removed-then-edited" }, adminCookie);
    const removed = await t.post("/api/updateuser", editOf("removed-then-edited"), adminCookie);
    expect(removed.statusCode).toBe(404);
  });
});

describe("POST /api/removeuser", () => {
  it("soft-removes the user, ends their sessions and takes their roles", async () => {
    const user = await t.createUser({
      username: "leaver",
      roles: [{ context: "reference", role: "viewer" }],
    });
    const theirs = await t.login("leaver", TEST_USER_PASSWORD);
    const res = await t.post("/api/removeuser", { username: "leaver" }, adminCookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Msg: "User 'leaver' removed" });
    expect((await row("leaver"))?.is_deleted).toBe(true);
    expect(await sessionAlive(theirs)).toBe(false);
    expect(await canSignIn("leaver", TEST_USER_PASSWORD)).toBe(false);
    const roles = await t.database.db
      .selectFrom("app.user_roles")
      .selectAll()
      .where("user_id", "=", user.user_id)
      .execute();
    expect(roles).toEqual([]);
    const list = (await t.post("/api/getusers", {}, adminCookie)).json() as { username: string }[];
    expect(list.map((u) => u.username)).not.toContain("leaver");
  });

  it("edits and removes an account whose name is longer than a new one may be", async () => {
    // Company sign-in made such names before it kept to USERNAME_MAX.
    const long = "e".repeat(80);
    await t.createUser({ username: long });
    const updated = await t.post(
      "/api/updateuser",
      { username: long, name: "Long Name", email: "long@example.com", password: null },
      adminCookie,
    );
    expect(updated.statusCode, updated.body).toBe(200);
    const removed = await t.post("/api/removeuser", { username: long }, adminCookie);
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await row(long))?.is_deleted).toBe(true);
  });

  it("refuses to remove the caller and changes nothing", async () => {
    const res = await t.post("/api/removeuser", { username: "plainadmin" }, adminCookie);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: "You cannot remove yourself" });
    expect((await row("plainadmin"))?.is_deleted).toBe(false);
    expect(await sessionAlive(adminCookie)).toBe(true);
  });

  it("refuses to remove the last super administrator and changes nothing", async () => {
    const res = await t.post("/api/removeuser", { username: "ADMIN" }, adminCookie);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: "The last super administrator cannot be removed" });
    expect((await row("admin"))?.is_deleted).toBe(false);
    expect(await sessionAlive(superCookie)).toBe(true);
    const roles = await t.database.db.selectFrom("app.user_roles").select("role").execute();
    expect(roles.length).toBeGreaterThan(0);
  });

  it("lets only a super administrator remove another super administrator", async () => {
    await t.createUser({ username: "super2", isadmin: true, issuperadmin: true });
    const refused = await t.post("/api/removeuser", { username: "super2" }, adminCookie);
    expect(refused.statusCode).toBe(403);
    expect((await row("super2"))?.is_deleted).toBe(false);
    const done = await t.post("/api/removeuser", { username: "super2" }, superCookie);
    expect(done.statusCode).toBe(200);
    expect((await row("super2"))?.is_deleted).toBe(true);
  });

  it("answers 404 for an unknown user and 400 without a username", async () => {
    const res = await t.post("/api/removeuser", { username: "never-existed" }, adminCookie);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: "Unknown user 'never-existed'" });
    const empty = await t.post("/api/removeuser", {}, adminCookie);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ message: "username: required field" });
  });
});
