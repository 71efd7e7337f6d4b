import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ username: "refviewer", roles: [{ context: "reference", role: "viewer" }] });
  await t.createUser({
    username: "both",
    roles: [
      { context: "reference", role: "steward" },
      { context: "reference", role: "approver" },
      { context: "Data Dictionary", role: "dictionary_viewer" },
    ],
  });
  await t.createUser({ username: "noroles" });
  // A role in a context that is no longer in the model is ignored.
  await t.createUser({ username: "stale", roles: [{ context: "retired", role: "viewer" }] });
});
afterAll(() => t.close());

async function contextsOf(username: string, password = TEST_USER_PASSWORD) {
  const cookie = await t.login(username, password);
  const res = await t.post("/api/contexts", {}, cookie);
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe("POST /api/contexts", () => {
  it("lists only the contexts where the user holds a role, once each, by uiName", async () => {
    expect(await contextsOf("refviewer")).toEqual([
      { name: "reference", uiName: "Reference Data" },
    ]);
    expect(await contextsOf("both")).toEqual([
      { name: "Data Dictionary", uiName: "Data Dictionary" },
      { name: "reference", uiName: "Reference Data" },
    ]);
    expect(await contextsOf("noroles")).toEqual([]);
    expect(await contextsOf("stale")).toEqual([]);
  });

  it("gives the demo administrator every context", async () => {
    expect(await contextsOf("admin", ADMIN_PASSWORD)).toHaveLength(2);
  });
});

describe("POST /api/allcontexts", () => {
  it("lists every context for an administrator", async () => {
    await t.createUser({ username: "lonely-admin", isadmin: true });
    const cookie = await t.login("lonely-admin", TEST_USER_PASSWORD);
    const res = await t.post("/api/allcontexts", {}, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().map((c: { name: string }) => c.name)).toEqual([
      "Data Dictionary",
      "reference",
    ]);
  });

  it("answers 403 to a user who is not an administrator", async () => {
    const cookie = await t.login("refviewer", TEST_USER_PASSWORD);
    const res = await t.post("/api/allcontexts", {}, cookie);
    expect(res.statusCode).toBe(403);
  });
});

describe("POST /api/context", () => {
  it("answers the context when the user holds a role in it", async () => {
    const cookie = await t.login("refviewer", TEST_USER_PASSWORD);
    const res = await t.post("/api/context", { context: "reference" }, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ name: "reference", uiName: "Reference Data" });
  });

  it("answers 403 for a context without a role, 404 for an unknown one, 400 without a name", async () => {
    const cookie = await t.login("refviewer", TEST_USER_PASSWORD);
    expect((await t.post("/api/context", { context: "Data Dictionary" }, cookie)).statusCode).toBe(
      403,
    );
    const unknown = await t.post("/api/context", { context: "nope" }, cookie);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: "Unknown application 'nope'" });
    const missing = await t.post("/api/context", {}, cookie);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toMatch(/context/);
  });
});

describe("POST /api/ping", () => {
  it("answers ok with the server time", async () => {
    const cookie = await t.login("noroles", TEST_USER_PASSWORD);
    const res = await t.post("/api/ping", {}, cookie);
    expect(res.statusCode).toBe(200);
    expect(res.json().status).toBe("ok");
    expect(Date.parse(res.json().serverTime)).not.toBeNaN();
  });
});
