import type { AuditListResponse } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Model } from "../model/model.ts";
import { ADMIN_PASSWORD, createTestApp, type TestApp } from "../testing/test-app.ts";
import { recordSelfApprovalChanges } from "./self-approval.ts";

/** The model's self-approval settings, recorded at start whenever one differs from the last record. */

let t: TestApp;
let adminCookie: string;
beforeAll(async () => {
  t = await createTestApp();
  adminCookie = await t.login("admin", ADMIN_PASSWORD);
});
afterAll(() => t.close());

async function settingEvents() {
  const res = await t.post("/api/audit/list", { kinds: ["self-approval-changed"] }, adminCookie);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<AuditListResponse>().events;
}

/** The model with one type's self-approval set as given. */
function withSelfApproval(model: Model, typeName: string, selfApproval: boolean): Model {
  return {
    contexts: model.contexts.map((c) => ({
      ...c,
      entityTypes: c.entityTypes.map((e) => (e.name === typeName ? { ...e, selfApproval } : e)),
    })),
  };
}

describe("self-approval settings in the audit trail", () => {
  it("records at the first start each type that allows self-approval, and only those", async () => {
    const allowing = t.prepared.model.contexts.flatMap((c) =>
      c.entityTypes.filter((e) => e.selfApproval).map((e) => `${c.name}/${e.name}`),
    );
    expect(allowing).toContain("reference/currency");
    const events = await settingEvents();
    expect(events.map((e) => e.subject).sort()).toEqual(allowing.sort());
    expect(events.find((e) => e.subject === "reference/currency")).toMatchObject({
      actor: null,
      origin: "server",
      detail: { selfApproval: true, before: false, file: "reference.yaml" },
    });
  });

  it("records nothing at a start with the same settings", async () => {
    const before = (await settingEvents()).length;
    expect(await recordSelfApprovalChanges(t.database.db, t.prepared.model)).toBe(0);
    expect(await settingEvents()).toHaveLength(before);
  });

  it("records a type that stops allowing it, once, and again when it allows it anew", async () => {
    const stricter = withSelfApproval(t.prepared.model, "currency", false);
    expect(await recordSelfApprovalChanges(t.database.db, stricter)).toBe(1);
    expect(await recordSelfApprovalChanges(t.database.db, stricter)).toBe(0);
    expect((await settingEvents())[0]).toMatchObject({
      subject: "reference/currency",
      detail: { selfApproval: false, before: true },
    });
    expect(await recordSelfApprovalChanges(t.database.db, t.prepared.model)).toBe(1);
    expect((await settingEvents())[0]).toMatchObject({
      subject: "reference/currency",
      detail: { selfApproval: true, before: false },
    });
  });

  it("records a change once when two instances start at the same time", async () => {
    const country = withSelfApproval(t.prepared.model, "country", true);
    const counts = await Promise.all([
      recordSelfApprovalChanges(t.database.db, country),
      recordSelfApprovalChanges(t.database.db, country),
    ]);
    expect(counts.sort()).toEqual([0, 1]);
  });
});
