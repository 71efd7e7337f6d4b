import type { AttributeInfo, RuleBreach } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { breachBadge } from "./rule-breaches.ts";

const attr = (name: string, uiName: string): AttributeInfo => ({
  name,
  uiName,
  uiDescription: "",
  uiSequence: 1,
  dataType: "Number",
  nullable: true,
  identity: false,
  generated: false,
  formula: "",
  editable: true,
  filter: true,
  rules: [],
});

const attributes = [attr("population", "Population"), attr("joined_eu", "Joined EU")];

const breach = (attribute: string, message: string, severity: RuleBreach["severity"]) => ({
  attribute,
  rule: `${attribute}:${severity}`,
  message,
  severity,
});

describe("breachBadge", () => {
  it("shows nothing for a change that breaks no rule", () => {
    expect(breachBadge(undefined, attributes)).toBeNull();
    expect(breachBadge([], attributes)).toBeNull();
  });

  it("says 'Warning' when every breach is a warning", () => {
    expect(breachBadge([breach("population", "looks too large", "warning")], attributes)).toEqual({
      text: "Warning",
      bg: "warning",
      lines: ["Population: looks too large"],
    });
  });

  it("says 'Breaks a rule' when any breach is an error, one message a line", () => {
    const badge = breachBadge(
      [
        breach("population", "looks too large", "warning"),
        breach("joined_eu", "must not be in the future", "error"),
        breach("gone", "names the attribute when it is unknown", "error"),
      ],
      attributes,
    );
    expect(badge).toEqual({
      text: "Breaks a rule",
      bg: "danger",
      lines: [
        "Population: looks too large",
        "Joined EU: must not be in the future",
        "gone: names the attribute when it is unknown",
      ],
    });
  });
});
