import type { AttributeInfo } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import {
  attributeOperators,
  type FilterRow,
  type FilterTab,
  filterChoices,
  operatorsOf,
  operatorText,
  parseFilterValue,
  tabsUpdates,
  toConstraintGroups,
  withTreeFilter,
} from "./filter-model.ts";

function attribute(
  name: string,
  dataType: AttributeInfo["dataType"],
  extra: Partial<AttributeInfo> = {},
): AttributeInfo {
  return {
    name,
    uiName: name,
    uiDescription: "",
    uiSequence: 1,
    dataType,
    nullable: true,
    identity: false,
    generated: false,
    formula: "",
    editable: true,
    filter: true,
    rules: [],
    ...extra,
  };
}

const attributes = [
  attribute("code", "String"),
  attribute("minor_units", "Number"),
  attribute("active", "Boolean"),
  attribute("currency", "Reference"),
  attribute("band", "String", { generated: true, filter: false }),
  attribute("display", "String", { formula: "name", filter: false }),
];

const row = (attr: string, operator: string, value: string, id = 1): FilterRow => ({
  id,
  attribute: attr,
  operator,
  value,
});
const tab = (filters: FilterRow[], enabled = true, id = 1): FilterTab => ({ id, enabled, filters });

describe("operatorsOf", () => {
  it("offers the text operators for strings and comparisons for numbers and dates", () => {
    expect(operatorsOf("String")).toContain("!Contains");
    expect(operatorsOf("Number")).toEqual(["=", "!=", "<", ">", "<=", ">="]);
    expect(operatorsOf("Date")).toEqual(operatorsOf("Number"));
    expect(operatorsOf("Boolean")).toEqual(["="]);
    expect(operatorsOf("Reference")).toEqual(["="]);
  });
});

describe("filterChoices", () => {
  it("lists filterable and generated attributes, not formulas", () => {
    expect(filterChoices(attributes).map((a) => a.name)).toEqual([
      "code",
      "minor_units",
      "active",
      "currency",
      "band",
    ]);
  });
});

describe("parseFilterValue", () => {
  it("converts number text and flags NaN as invalid", () => {
    expect(parseFilterValue("Number", " 12.5 ")).toEqual({ kind: "ok", value: 12.5 });
    expect(parseFilterValue("Number", "12x")).toEqual({ kind: "invalid", reason: "not a number" });
    expect(parseFilterValue("Number", "")).toEqual({ kind: "empty" });
  });

  it("reads booleans as true, false or null and references as key ids", () => {
    expect(parseFilterValue("Boolean", "false")).toEqual({ kind: "ok", value: false });
    expect(parseFilterValue("Boolean", "null")).toEqual({ kind: "ok", value: null });
    expect(parseFilterValue("Reference", "42")).toEqual({ kind: "ok", value: 42 });
  });

  it("takes dates as YYYY-MM-DD only", () => {
    expect(parseFilterValue("Date", "2004-05-01")).toEqual({ kind: "ok", value: "2004-05-01" });
    expect(parseFilterValue("Date", "1/5/2004").kind).toBe("invalid");
  });
});

describe("toConstraintGroups", () => {
  it("makes one AND group per enabled tab", () => {
    const tabs = [
      tab([row("code", "StartsWith", "EU")], true, 1),
      tab([row("code", "=", "USD"), row("minor_units", ">", "1", 2)], true, 2),
      tab([row("code", "=", "GBP")], false, 3),
    ];
    expect(toConstraintGroups(tabs, attributes)).toEqual([
      [{ attribute: "code", operator: "StartsWith", values: ["EU"] }],
      [
        { attribute: "code", operator: "=", values: ["USD"] },
        { attribute: "minor_units", operator: ">", values: [1] },
      ],
    ]);
  });

  it("leaves out empty and invalid filters, generated attributes and tabs left empty", () => {
    const tabs = [
      tab([row("code", "=", ""), row("minor_units", "=", "abc", 2), row("band", "=", "x", 3)]),
      tab([], true, 2),
    ];
    expect(toConstraintGroups(tabs, attributes)).toEqual([]);
  });
});

describe("tabsUpdates", () => {
  it("duplicates a filter beside the original and removes it again", () => {
    const start = [tab([row("code", "=", "USD", 7)])];
    const doubled = tabsUpdates.duplicateFilter(1, 7)(start);
    expect(doubled[0].filters).toHaveLength(2);
    expect(doubled[0].filters[1]).toMatchObject({ attribute: "code", operator: "=", value: "USD" });
    expect(doubled[0].filters[1].id).not.toBe(7);
    expect(tabsUpdates.removeFilter(1, 7)(doubled)[0].filters).toHaveLength(1);
  });

  it("toggles and closes tabs", () => {
    const start = [tab([], true, 1), tab([], true, 2)];
    expect(tabsUpdates.toggle(2)(start)[1].enabled).toBe(false);
    expect(
      tabsUpdates
        .remove(1)(start)
        .map((t) => t.id),
    ).toEqual([2]);
  });
});

describe("a tree's parent", () => {
  const parent = attribute("parent", "Reference", { parent: true, referencedEntityType: "region" });

  it("is filtered by Descendants of and Ancestors of besides =", () => {
    expect(attributeOperators(parent)).toEqual(["=", "Descendants", "Ancestors"]);
    expect(attributeOperators(attribute("region", "Reference"))).toEqual(["="]);
    expect(operatorText("Descendants")).toBe("Descendants of");
  });

  it("adds 'Descendants of <record>' to the first tab, which it enables, or to a new one", () => {
    const [tab] = withTreeFilter([], parent, "Descendants", 42);
    expect(toConstraintGroups([tab], [parent])).toEqual([
      [{ attribute: "parent", operator: "Descendants", values: [42] }],
    ]);
    const name = attribute("name", "String");
    const first: FilterTab = {
      id: 1,
      enabled: false,
      filters: [{ id: 2, attribute: "name", operator: "StartsWith", value: "E" }],
    };
    const [both] = withTreeFilter([first], parent, "Ancestors", 7);
    expect(toConstraintGroups([both], [parent, name])).toEqual([
      [
        { attribute: "name", operator: "StartsWith", values: ["E"] },
        { attribute: "parent", operator: "Ancestors", values: [7] },
      ],
    ]);
  });
});
