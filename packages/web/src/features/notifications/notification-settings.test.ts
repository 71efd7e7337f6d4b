import {
  NOTIFICATION_KINDS,
  type NotificationSettings,
  notificationKindsFor,
} from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { notificationRows, withSetting } from "./notification-settings.ts";

const settings = (overrides: Partial<NotificationSettings> = {}): NotificationSettings => ({
  email: "ann@example.com",
  emailEnabled: true,
  settings: NOTIFICATION_KINDS.map((kind) => ({ kind, enabled: true })),
  ...overrides,
});

describe("notificationRows", () => {
  it("lists every kind in the contract's order with its name and description", () => {
    const rows = notificationRows(settings().settings, NOTIFICATION_KINDS);
    expect(rows.map((r) => r.kind)).toEqual([...NOTIFICATION_KINDS]);
    expect(rows[0]).toEqual({
      kind: "changes_waiting",
      uiName: "Change sets waiting for me",
      uiDescription:
        "An upload or a metadata import has changes that I may approve (one message per change set).",
      enabled: true,
    });
  });

  it("shows a kind switched off as off, and one the server left out as on", () => {
    const rows = notificationRows(
      [{ kind: "decision", enabled: false }],
      notificationKindsFor(true),
    );
    expect(rows.map((r) => [r.kind, r.enabled])).toEqual([
      ["changes_waiting", true],
      ["web_digest", true],
      ["decision", false],
      ["import_failed", true],
      ["webhook_paused", true],
    ]);
  });

  it("leaves the administrators' kinds out for everyone else", () => {
    const rows = notificationRows(settings().settings, notificationKindsFor(false));
    expect(rows.map((r) => r.kind)).not.toContain("webhook_paused");
    expect(rows).toHaveLength(NOTIFICATION_KINDS.length - 1);
  });
});

describe("withSetting", () => {
  it("switches one kind and leaves the others and the address alone", () => {
    const next = withSetting(settings(), { kind: "web_digest", enabled: false });
    expect(next.email).toBe("ann@example.com");
    expect(next.settings.filter((s) => !s.enabled)).toEqual([
      { kind: "web_digest", enabled: false },
    ]);
    expect(next.settings).toHaveLength(NOTIFICATION_KINDS.length);
  });

  it("adds a kind the list did not hold yet", () => {
    const next = withSetting(settings({ settings: [] }), { kind: "decision", enabled: false });
    expect(next.settings).toEqual([{ kind: "decision", enabled: false }]);
  });
});
