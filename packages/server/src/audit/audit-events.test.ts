import type { AuditListResponse, CreatedApiToken, SecurityEvent } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  createTestApp,
  credentialHeaders,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";

/** What the security audit trail records of sign-ins, users, roles and tokens, and from where. */

let t: TestApp;
let adminCookie: string;

beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await t.login("admin", ADMIN_PASSWORD);
});
afterAll(() => t.close());

/** Signs in through the form from a given client address, as a browser there would. */
function signInFrom(remoteAddress: string, username: string, password: string) {
  return t.app.inject({
    method: "POST",
    url: "/auth/login",
    remoteAddress,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ username, password }).toString(),
  });
}

/** An administrator's call from a given client address. */
function postFrom(remoteAddress: string, url: string, body: unknown) {
  return t.app.inject({
    method: "POST",
    url,
    remoteAddress,
    headers: { ...credentialHeaders(adminCookie), "content-type": "application/json" },
    payload: JSON.stringify(body),
  });
}

async function eventsOf(subject: string): Promise<SecurityEvent[]> {
  const res = await t.post("/api/audit/list", { subject, pageSize: 100 }, adminCookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditListResponse>().events;
}

describe("the audit trail of sign-ins", () => {
  it("records a failed and a successful sign-in with the client's address", async () => {
    await t.createUser({ username: "signer" });
    expect((await signInFrom("198.51.100.7", "signer", "wrong-password")).statusCode).toBe(401);
    const ok = await signInFrom("198.51.100.8", "signer", TEST_USER_PASSWORD);
    expect(ok.statusCode).toBe(200);

    const [success, failure] = await eventsOf("signer");
    expect(failure).toMatchObject({
      kind: "sign-in-failed",
      actor: "signer",
      subject: "signer",
      origin: "198.51.100.7",
      detail: { method: "password", reason: "wrong password" },
    });
    expect(success).toMatchObject({
      kind: "sign-in",
      actor: "signer",
      origin: "198.51.100.8",
      detail: { method: "password" },
    });
    expect(Date.now() - Date.parse(success?.occurredAt ?? "")).toBeLessThan(60_000);
  });

  it("records a failed sign-in of a name nobody has, as typed", async () => {
    await signInFrom("198.51.100.9", "nobody-here", "whatever-password");
    expect(await eventsOf("nobody-here")).toMatchObject([
      { kind: "sign-in-failed", origin: "198.51.100.9", detail: { reason: "no such user" } },
    ]);
  });

  it("records a sign-out with the session's user", async () => {
    await t.createUser({ username: "leaver" });
    const cookie = await t.login("leaver", TEST_USER_PASSWORD);
    const res = await t.app.inject({
      method: "POST",
      url: "/auth/logout",
      remoteAddress: "198.51.100.10",
      headers: credentialHeaders(cookie),
    });
    expect(res.statusCode).toBe(200);
    expect((await eventsOf("leaver"))[0]).toMatchObject({
      kind: "sign-out",
      actor: "leaver",
      origin: "198.51.100.10",
    });
  });
});

describe("the audit trail of users, roles and tokens", () => {
  it("records the first super administrator the server made at its first start, with its demo roles", async () => {
    const res = await t.post(
      "/api/audit/list",
      { subject: "admin", kinds: ["user-created", "role-granted"], pageSize: 100 },
      adminCookie,
    );
    const events = res.json<AuditListResponse>().events;
    const roles = t.prepared.model.contexts.flatMap((c) => c.roles).length;
    expect(events).toHaveLength(1 + roles);
    expect(events.at(-1)).toMatchObject({
      kind: "user-created",
      actor: null,
      origin: "server",
      detail: { isadmin: true, issuperadmin: true, via: "first start" },
    });
    expect(events[0]).toMatchObject({ kind: "role-granted", actor: null, detail: { via: "demo" } });
  });

  it("records a role granted and taken by an administrator, and nothing for a no-op", async () => {
    await t.createUser({ username: "grantee" });
    const role = { username: "grantee", context: "reference", role: "steward" };
    expect((await postFrom("192.0.2.1", "/api/addrole", role)).statusCode).toBe(200);
    expect((await postFrom("192.0.2.1", "/api/addrole", role)).statusCode).toBe(200);
    expect((await postFrom("192.0.2.2", "/api/removerole", role)).statusCode).toBe(200);
    expect((await postFrom("192.0.2.2", "/api/removerole", role)).statusCode).toBe(200);

    expect(await eventsOf("grantee")).toMatchObject([
      {
        kind: "role-revoked",
        actor: "admin",
        origin: "192.0.2.2",
        detail: { context: "reference", role: "steward" },
      },
      {
        kind: "role-granted",
        actor: "admin",
        origin: "192.0.2.1",
        detail: { context: "reference", role: "steward" },
      },
    ]);
  });

  it("records a user created, its e-mail and administrator right changed, its password reset and its removal", async () => {
    const user = { username: "managed", name: "Managed", email: "m@example.com" };
    const create = await postFrom("192.0.2.3", "/api/createuser", {
      ...user,
      password: "a-long-enough-password-1",
      isadmin: false,
    });
    expect(create.statusCode, create.body).toBe(200);
    const update = await postFrom("192.0.2.3", "/api/updateuser", {
      ...user,
      email: "managed@example.com",
      isadmin: true,
      password: "another-long-password-2",
    });
    expect(update.statusCode, update.body).toBe(200);
    const role = { username: "managed", context: "reference", role: "viewer" };
    expect((await postFrom("192.0.2.3", "/api/addrole", role)).statusCode).toBe(200);
    const remove = await postFrom("192.0.2.3", "/api/removeuser", { username: "managed" });
    expect(remove.statusCode, remove.body).toBe(200);

    const events = await eventsOf("managed");
    expect(events.map((e) => e.kind)).toEqual([
      "user-removed",
      "role-granted",
      "password-reset",
      "admin-granted",
      "email-changed",
      "user-created",
    ]);
    expect(events.every((e) => e.actor === "admin" && e.origin === "192.0.2.3")).toBe(true);
    expect(events[0]?.detail).toEqual({ rolesTaken: [{ context: "reference", role: "viewer" }] });
    expect(events[4]?.detail).toEqual({ from: "m@example.com", to: "managed@example.com" });
    expect(JSON.stringify(events)).not.toContain("another-long-password-2");
  });

  it("records a token's creation and revocation, with the token in the detail", async () => {
    await t.createUser({ username: "scripter" });
    const cookie = await t.login("scripter", TEST_USER_PASSWORD);
    const created = await t.app.inject({
      method: "POST",
      url: "/api/tokens/create",
      remoteAddress: "192.0.2.4",
      headers: { ...credentialHeaders(cookie), "content-type": "application/json" },
      payload: JSON.stringify({ name: "nightly job", scope: "read", expiresInDays: 5 }),
    });
    expect(created.statusCode, created.body).toBe(200);
    const { secret, token } = created.json<CreatedApiToken>();
    const revoked = await postFrom("192.0.2.5", "/api/tokens/revoke", { tokenId: token.tokenId });
    expect(revoked.statusCode, revoked.body).toBe(200);

    const events = await eventsOf("scripter");
    expect(events.slice(0, 2)).toMatchObject([
      {
        kind: "token-revoked",
        actor: "admin",
        origin: "192.0.2.5",
        detail: { tokenId: token.tokenId, name: "nightly job" },
      },
      {
        kind: "token-created",
        actor: "scripter",
        origin: "192.0.2.4",
        detail: { tokenId: token.tokenId, name: "nightly job", scope: "read" },
      },
    ]);
    expect(JSON.stringify(events)).not.toContain(secret);
  });

  it("writes no event when the change is refused", async () => {
    await t.createUser({ username: "plainadmin", isadmin: true });
    const cookie = await t.login("plainadmin", TEST_USER_PASSWORD);
    const res = await t.post(
      "/api/createuser",
      {
        username: "wouldbeadmin",
        name: "W",
        email: "w@example.com",
        password: "a-long-enough-password-3",
        isadmin: true,
      },
      cookie,
    );
    expect(res.statusCode).toBe(403);
    expect(await eventsOf("wouldbeadmin")).toEqual([]);
  });
});
