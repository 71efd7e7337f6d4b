import { NOTIFICATION_KINDS } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { messageDateText, switchedOffText } from "./notification-summary.ts";

const all = (enabled: boolean) => NOTIFICATION_KINDS.map((kind) => ({ kind, enabled }));

describe("switchedOffText", () => {
  it("says 'all on' when nothing is switched off, or nothing is listed", () => {
    expect(switchedOffText(all(true))).toBe("all on");
    expect(switchedOffText([])).toBe("all on");
  });

  it("names the kinds switched off, in the order of the Notifications page", () => {
    const settings = all(true).map((s) =>
      s.kind === "import_failed" || s.kind === "web_digest" ? { ...s, enabled: false } : s,
    );
    expect(switchedOffText(settings)).toBe(
      "off: Web changes waiting for me, Failed scheduled imports",
    );
  });

  it("says 'all off' when every kind is switched off", () => {
    expect(switchedOffText(all(false))).toBe("all off");
  });
});

describe("messageDateText", () => {
  it("writes local time as YYYY/MM/DD HH:mm:ss", () => {
    expect(messageDateText(new Date(2026, 0, 2, 3, 4, 5).toISOString())).toBe(
      "2026/01/02 03:04:05",
    );
  });

  it("keeps a text it cannot read as it is", () => {
    expect(messageDateText("yesterday")).toBe("yesterday");
  });
});
