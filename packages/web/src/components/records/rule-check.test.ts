import type { AttributeInfo, AttributeRule, EntityTypeInfo, TypeRule } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import {
  checkRules,
  hasRules,
  type RuleType,
  ruleHints,
  ruleLines,
  rulesElsewhere,
  rulesOf,
} from "./rule-check.ts";

function attribute(
  name: string,
  dataType: AttributeInfo["dataType"],
  rules: AttributeRule[] = [],
): AttributeInfo {
  return {
    name,
    uiName: name.toUpperCase(),
    uiDescription: "",
    uiSequence: 1,
    dataType,
    nullable: true,
    identity: false,
    generated: false,
    formula: "",
    editable: true,
    filter: true,
    rules,
  };
}

const isoCode: AttributeRule = {
  kind: "pattern",
  pattern: "[A-Z]{3}",
  id: "code:pattern",
  message: "three capital letters",
  severity: "error",
};
const minorUnits: AttributeRule = {
  kind: "range",
  min: 0,
  max: 4,
  id: "minor:range",
  message: "between 0 and 4",
  severity: "error",
};
const longName: AttributeRule = {
  kind: "length",
  max: 5,
  id: "name:length",
  message: "a short name reads better",
  severity: "warning",
};
const uniqueName: AttributeRule = {
  kind: "unique",
  id: "name:unique",
  message: "no two currencies share a name",
  severity: "error",
};
const validity: TypeRule = {
  kind: "compare",
  left: "validFrom",
  op: "<=",
  right: "validTo",
  id: "validFrom<=validTo",
  message: "valid from must not be after valid to",
  severity: "error",
};

const type: RuleType = {
  attributes: [
    attribute("code", "String", [isoCode]),
    attribute("name", "String", [longName, uniqueName]),
    attribute("minor", "Number", [minorUnits]),
    attribute("validFrom", "Date"),
    attribute("validTo", "Date"),
  ],
  rules: [validity],
};

const plain: Pick<EntityTypeInfo, "attributes" | "rules"> = {
  attributes: [attribute("code", "String")],
  rules: [],
};

describe("hasRules", () => {
  it("holds when the type or any attribute declares a rule", () => {
    expect(hasRules(type)).toBe(true);
    expect(hasRules(plain)).toBe(false);
    expect(hasRules({ attributes: plain.attributes, rules: [validity] })).toBe(true);
  });
});

describe("ruleHints", () => {
  it("lists a field's own rules, unique ones as checked when saved", () => {
    expect(ruleHints(type, type.attributes[1])).toEqual([
      {
        id: "name:length",
        message: "a short name reads better",
        between: false,
        checkedOnSave: false,
      },
      {
        id: "name:unique",
        message: "no two currencies share a name",
        between: false,
        checkedOnSave: true,
      },
    ]);
  });

  it("shows a rule between attributes on the attribute its breach is shown on", () => {
    expect(ruleHints(type, type.attributes[3]).map((h) => h.message)).toEqual([
      "valid from must not be after valid to",
    ]);
    expect(ruleHints(type, type.attributes[4])).toEqual([]);
  });
});

describe("checkRules on a new record", () => {
  it("refuses while an error rule fails, with the rule's message under its field", () => {
    const check = checkRules(type, { code: "usd", minor: 7 });
    expect(check.blocked).toBe(true);
    expect(rulesOf(check, "code").errors.map((r) => r.message)).toEqual(["three capital letters"]);
    expect(rulesOf(check, "minor").errors.map((r) => r.message)).toEqual(["between 0 and 4"]);
  });

  it("lets warnings through, shown as warnings", () => {
    const check = checkRules(type, { code: "USD", name: "US dollar", minor: 2 });
    expect(check.blocked).toBe(false);
    expect(rulesOf(check, "name")).toEqual({
      errors: [],
      stored: [],
      warnings: [{ id: "name:length", message: "a short name reads better", between: false }],
    });
  });

  it("checks nothing on empty values", () => {
    expect(checkRules(type, { code: null, name: undefined, minor: null })).toEqual({
      fields: {},
      blocked: false,
    });
  });

  it("compares dates given as YYYY-MM-DD and shows the breach on the left attribute", () => {
    const check = checkRules(type, { validFrom: "2026-02-01", validTo: "2026-01-31" });
    expect(check.blocked).toBe(true);
    expect(rulesOf(check, "validFrom").errors).toEqual([
      {
        id: "validFrom<=validTo",
        message: "valid from must not be after valid to",
        between: true,
      },
    ]);
    expect(rulesOf(check, "validTo").errors).toEqual([]);
    expect(checkRules(type, { validFrom: "2026-01-31", validTo: "2026-01-31" }).blocked).toBe(
      false,
    );
  });
});

describe("checkRules on an edited record", () => {
  const stored = { code: "usd", minor: 2, validFrom: "2026-02-01", validTo: "2026-01-31" };

  it("leaves what the stored record breaks already to the user", () => {
    const check = checkRules(type, { ...stored, minor: 3 }, new Set(["minor"]));
    expect(check.blocked).toBe(false);
    expect(rulesOf(check, "code").stored.map((r) => r.message)).toEqual(["three capital letters"]);
    expect(rulesOf(check, "validFrom").stored).toHaveLength(1);
  });

  it("refuses a changed value that breaks a rule", () => {
    const check = checkRules(type, { ...stored, minor: 9 }, new Set(["minor"]));
    expect(check.blocked).toBe(true);
    expect(rulesOf(check, "minor").errors.map((r) => r.message)).toEqual(["between 0 and 4"]);
  });

  it("refuses a rule between attributes when either side changed", () => {
    const check = checkRules(type, { ...stored, validTo: "2026-01-15" }, new Set(["validTo"]));
    expect(check.blocked).toBe(true);
    expect(rulesOf(check, "validFrom").errors.map((r) => r.id)).toEqual(["validFrom<=validTo"]);
  });
});

describe("ruleLines", () => {
  const name = type.attributes[1];
  const hints = ruleHints(type, name);

  it("shows every rule as a hint, in its declared order, while the field breaks none", () => {
    expect(ruleLines(hints, rulesOf(checkRules(type, { name: "Euro" }), "name"))).toEqual([
      { state: "hint", rule: hints[0] },
      { state: "hint", rule: hints[1] },
    ]);
  });

  it("shows a broken rule in its hint's place, so lines keep their order as they change", () => {
    const check = checkRules(type, { name: "Pound sterling" });
    expect(ruleLines(hints, rulesOf(check, "name")).map((l) => [l.state, l.rule.id])).toEqual([
      ["warning", "name:length"],
      ["hint", "name:unique"],
    ]);
    // The order is the hints', whatever the lines' states.
    const reordered = [...hints].reverse();
    expect(ruleLines(reordered, rulesOf(check, "name")).map((l) => [l.state, l.rule.id])).toEqual([
      ["hint", "name:unique"],
      ["warning", "name:length"],
    ]);
  });

  it("tells errors, breaches already stored and warnings apart", () => {
    const hint = (id: string) => ({ id, message: id, between: false, checkedOnSave: false });
    const note = (id: string) => ({ id, message: id, between: false });
    const lines = ruleLines([hint("a"), hint("b"), hint("c"), hint("d")], {
      errors: [note("c")],
      stored: [note("a")],
      warnings: [note("d")],
    });
    expect(lines.map((l) => [l.state, l.rule.id])).toEqual([
      ["stored", "a"],
      ["hint", "b"],
      ["error", "c"],
      ["warning", "d"],
    ]);
  });

  it("pairs a hint with its breach by rule and by kind (own or between attributes)", () => {
    const validFrom = type.attributes[3];
    const check = checkRules(type, { validFrom: "2026-02-01", validTo: "2026-01-31" });
    expect(
      ruleLines(ruleHints(type, validFrom), rulesOf(check, "validFrom")).map((l) => [
        l.state,
        l.rule.between,
      ]),
    ).toEqual([["error", true]]);
    const own = { id: "validFrom<=validTo", message: "own", between: false, checkedOnSave: false };
    expect(
      ruleLines([own], rulesOf(check, "validFrom")).map((l) => [l.state, l.rule.between]),
    ).toEqual([
      ["error", true],
      ["hint", false],
    ]);
  });

  it("shows a breach without a hint first, once", () => {
    const note = { id: "x", message: "x", between: false };
    const lines = ruleLines(hints, { errors: [note], stored: [], warnings: [note] });
    expect(lines.map((l) => [l.state, l.rule.id])).toEqual([
      ["error", "x"],
      ["hint", "name:length"],
      ["hint", "name:unique"],
    ]);
  });
});

describe("rulesElsewhere", () => {
  it("lists breaches on attributes the form has no field for, by their names", () => {
    const check = checkRules(type, { code: "x", minor: 9 });
    expect(rulesElsewhere(check, type.attributes, new Set(["code"]))).toEqual([
      { label: "MINOR", rules: rulesOf(check, "minor") },
    ]);
  });
});
