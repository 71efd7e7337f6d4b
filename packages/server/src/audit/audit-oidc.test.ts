import type { AuditListResponse, SecurityEvent } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { companySignIn, createOidcTestApp, type OidcTestApp } from "../testing/company-sign-in.ts";
import type { TestAccount } from "../testing/oidc-provider.ts";
import { ADMIN_PASSWORD } from "../testing/test-app.ts";

/** What the audit trail records of company sign-ins and the rights the group mapping gives. */

const MAPPING = `
groups:
  data-stewards:
    roles: [{ context: reference, role: steward }]
  ledgerline-admins:
    isadmin: true
`;

const olga: TestAccount = {
  preferred_username: "olga",
  name: "Olga Example",
  email: "olga@example.com",
  groups: ["data-stewards", "ledgerline-admins"],
};

let o: OidcTestApp;
let adminCookie: string;
beforeAll(async () => {
  o = await createOidcTestApp({ mapping: MAPPING, accounts: { olga } });
  adminCookie = await o.t.login("admin", ADMIN_PASSWORD);
});
afterAll(() => o.close());

async function eventsOf(user: string): Promise<SecurityEvent[]> {
  const res = await o.t.post("/api/audit/list", { user }, adminCookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditListResponse>().events;
}

describe("the audit trail of company sign-ins", () => {
  it("records the account made, the mapped role and administrator right, and the sign-in", async () => {
    const first = await companySignIn(o, "olga");
    expect(first.sessionCookie).toBeDefined();
    const events = await eventsOf("olga");
    expect(events.map((e) => e.kind)).toEqual([
      "sign-in",
      "admin-granted",
      "role-granted",
      "user-created",
    ]);
    expect(events.every((e) => e.actor === "olga" && e.origin === "127.0.0.1")).toBe(true);
    expect(events[0]?.detail).toEqual({ method: "oidc" });
    expect(events[1]?.detail).toEqual({ isadmin: true, via: "group mapping" });
    expect(events[2]?.detail).toEqual({
      context: "reference",
      role: "steward",
      via: "group mapping",
    });
  });

  it("records the mapped rights taken back when the groups no longer give them", async () => {
    olga.groups = [];
    expect((await companySignIn(o, "olga")).sessionCookie).toBeDefined();
    const events = await eventsOf("olga");
    expect(events.slice(0, 3)).toMatchObject([
      { kind: "sign-in" },
      { kind: "admin-revoked", detail: { isadmin: false, via: "group mapping" } },
      { kind: "role-revoked", detail: { context: "reference", role: "steward" } },
    ]);
  });

  it("records a refused company sign-in with its reason", async () => {
    const refused = await companySignIn(o, "olga", {
      alter: (answer, cookie) => {
        answer.searchParams.set("state", "forged");
        return { answer, cookie };
      },
    });
    expect(refused.location).toBe("/login?error=state");
    const failures = await o.t.post("/api/audit/list", { kinds: ["sign-in-failed"] }, adminCookie);
    expect(failures.json<AuditListResponse>().events[0]).toMatchObject({
      kind: "sign-in-failed",
      actor: null,
      origin: "127.0.0.1",
      detail: { method: "oidc", reason: "state" },
    });
  });
});
