import type { AuditListResponse, CreatedApiToken } from "@ledgerline/contract";
import ExcelJS from "exceljs";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN_PASSWORD,
  createTestApp,
  TEST_USER_PASSWORD,
  type TestApp,
} from "../testing/test-app.ts";
import { recordSecurityEvent } from "./audit.service.ts";
import { sweepAuditTrail } from "./retention.ts";

/** The audit trail's API: for administrators only, filtered, paged, exported, and swept. */

let t: TestApp;
let adminCookie: string;
let stewardCookie: string;

beforeAll(async () => {
  t = await createTestApp({ env: { AUDIT_RETENTION_DAYS: "30" } });
  adminCookie = await t.login("admin", ADMIN_PASSWORD);
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  stewardCookie = await t.login("steward", TEST_USER_PASSWORD);
  // Events of a known shape and age, beside those the sign-ins above wrote.
  const db = t.database.db;
  for (let i = 1; i <= 7; i++)
    await recordSecurityEvent(db, {
      kind: "token-created",
      actor: "pat",
      subject: "pat",
      ip: "203.0.113.1",
      detail: { tokenId: i, name: `job ${i}` },
    });
  await recordSecurityEvent(db, {
    kind: "role-granted",
    actor: "admin",
    subject: "pat",
    ip: "cli",
  });
  await recordSecurityEvent(db, { kind: "sign-in", actor: "quinn", subject: "quinn", ip: "::1" });
  await sql`update app.security_events set occurred_at = '2020-01-15T12:00:00Z'
    where actor = 'quinn'`.execute(db);
});
afterAll(() => t.close());

const list = async (body: object) => {
  const res = await t.post("/api/audit/list", body, adminCookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditListResponse>();
};

describe("who may read the audit trail", () => {
  it("answers 403 to a user who is not an administrator, and 401 without a session", async () => {
    for (const url of ["/api/audit/list", "/api/audit/export"]) {
      expect((await t.post(url, {}, stewardCookie)).statusCode).toBe(403);
      expect((await t.post(url, {})).statusCode).toBe(401);
    }
  });

  it("refuses an administrator's API token, even a read one", async () => {
    const created = await t.post(
      "/api/tokens/create",
      { name: "audit reader", scope: "read", expiresInDays: 1 },
      adminCookie,
    );
    const { secret } = created.json<CreatedApiToken>();
    const res = await t.post("/api/audit/list", {}, `Bearer ${secret}`);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: "This call is not open to API tokens" });
  });
});

describe("POST /api/audit/list", () => {
  it("filters by kind and actor, newest first, paged with the total", async () => {
    const first = await list({ kinds: ["token-created"], actor: "PAT", pageSize: 3 });
    expect(first.total).toBe(7);
    expect(first.events.map((e) => e.detail.tokenId)).toEqual([7, 6, 5]);
    const last = await list({ kinds: ["token-created"], actor: "pat", pageSize: 3, pageNum: 3 });
    expect(last).toMatchObject({ total: 7, events: [{ detail: { tokenId: 1 } }] });
    expect(last.events[0]).toMatchObject({ subject: "pat", origin: "203.0.113.1" });
  });

  it("filters by subject and by user (who did it or whom it concerns)", async () => {
    expect((await list({ subject: "pat" })).total).toBe(8);
    const grantedTo = await list({ user: "pat", kinds: ["role-granted"] });
    expect(grantedTo.events).toMatchObject([{ actor: "admin", subject: "pat", origin: "cli" }]);
    const grantedBy = await list({ user: "ADMIN", subject: "pat" });
    expect(grantedBy.events).toMatchObject([{ kind: "role-granted", actor: "admin" }]);
  });

  it("filters by time, from inclusive and to exclusive", async () => {
    const old = await list({ from: "2020-01-01T00:00:00Z", to: "2020-02-01T00:00:00Z" });
    expect(old.events).toMatchObject([{ actor: "quinn", occurredAt: "2020-01-15T12:00:00.000Z" }]);
    expect((await list({ to: "2020-01-15T12:00:00Z" })).total).toBe(0);
    expect((await list({ from: "2020-01-15T12:00:00Z", actor: "quinn" })).total).toBe(1);
    expect((await list({ from: "2021-01-01T00:00:00+01:00", actor: "quinn" })).total).toBe(0);
  });

  it("answers 400 for an unknown kind or a time without its offset", async () => {
    for (const body of [{ kinds: ["coffee-break"] }, { from: "2020-01-01T00:00:00" }]) {
      const res = await t.post("/api/audit/list", body, adminCookie);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
  });
});

describe("POST /api/audit/export", () => {
  it("answers a real workbook of the filtered events with the page's columns", async () => {
    const res = await t.post("/api/audit/export", { subject: "pat" }, adminCookie);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers["content-type"]).toContain("spreadsheetml");
    expect(res.headers["content-disposition"]).toMatch(/attachment; filename="Report_.*\.xlsx"/);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0];
    expect(sheet?.name).toBe("Audit trail");
    const rows = (sheet?.getSheetValues() ?? []).filter(Boolean) as unknown[][];
    expect(rows[0]?.slice(1)).toEqual(["When", "Event", "Who", "Subject", "From", "Details"]);
    expect(rows).toHaveLength(1 + 8);
    expect(rows[1]?.slice(2)).toEqual(["role-granted", "admin", "pat", "cli"]);
    const newestToken = rows[2]?.slice(1) ?? [];
    expect(newestToken.slice(1)).toEqual([
      "token-created",
      "pat",
      "pat",
      "203.0.113.1",
      JSON.stringify({ name: "job 7", tokenId: 7 }),
    ]);
    expect(String(newestToken[0])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});

describe("retention", () => {
  it("reads AUDIT_RETENTION_DAYS", () => {
    expect(t.config.audit.retentionDays).toBe(30);
  });

  it("removes only the events older than the retention", async () => {
    const before = (await list({})).total;
    await recordSecurityEvent(t.database.db, { kind: "sign-out", actor: "rita", subject: "rita" });
    await recordSecurityEvent(t.database.db, { kind: "sign-in", actor: "rita", subject: "rita" });
    await sql`update app.security_events set occurred_at = now() - interval '31 days'
      where actor = 'rita' and kind = 'sign-in'`.execute(t.database.db);
    await sql`update app.security_events set occurred_at = now() - interval '29 days'
      where actor = 'rita' and kind = 'sign-out'`.execute(t.database.db);

    // quinn's event of 2020 and rita's of 31 days ago.
    expect(await sweepAuditTrail(t.database.db, t.config.audit.retentionDays)).toBe(2);
    expect((await list({ actor: "rita" })).events).toMatchObject([{ kind: "sign-out" }]);
    expect((await list({})).total).toBe(before + 2 - 2);
    expect(await sweepAuditTrail(t.database.db, t.config.audit.retentionDays)).toBe(0);
  });
});
