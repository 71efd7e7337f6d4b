import type { RowConstraint } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { explorerEmptyText } from "./explorer-empty.ts";

const iso: RowConstraint = { attribute: "iso2", operator: "=", values: ["DE"] };

describe("explorerEmptyText", () => {
  it("leaves the table's default when 'Breaks a rule' is off", () => {
    expect(explorerEmptyText({})).toBeUndefined();
    expect(explorerEmptyText({ constraintGroups: [[iso]] })).toBeUndefined();
  });

  it("says no record breaks a rule when only 'Breaks a rule' filters", () => {
    expect(explorerEmptyText({ breaksRule: true })).toBe("No records break a rule");
    expect(explorerEmptyText({ breaksRule: true, constraintGroups: [] })).toBe(
      "No records break a rule",
    );
  });

  it("names the filters too when they took part in the search", () => {
    expect(explorerEmptyText({ breaksRule: true, rowConstraints: [iso] })).toBe(
      "No records match the filters and break a rule",
    );
    expect(explorerEmptyText({ breaksRule: true, constraintGroups: [[iso]] })).toBe(
      "No records match the filters and break a rule",
    );
  });
});
