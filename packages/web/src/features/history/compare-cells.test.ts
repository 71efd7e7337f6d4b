import type { AttributeInfo, AttrValue, CompareRow } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { compareCellChange, comparedAttributes } from "./compare-cells.ts";

function attribute(name: string, extra: Partial<AttributeInfo> = {}): AttributeInfo {
  return {
    name,
    uiName: name,
    uiDescription: "",
    uiSequence: 1,
    dataType: "String",
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

type Values = Record<string, AttrValue> | null;

function row(kind: CompareRow["kind"], before: Values, after: Values, changed: string[] = []) {
  return {
    entityKeyID: 7,
    kind,
    label: "Testland (ZZ)",
    before,
    after,
    changedAttributes: changed,
  } satisfies CompareRow;
}

const name = attribute("name");
const population = attribute("population", { dataType: "Number" });
const v = (value: AttrValue["value"]): AttrValue => ({ value });

describe("compare cells", () => {
  it("shows an added record's values as new and its empty ones plain", () => {
    const added = row("Added", null, { name: v("Testland"), population: v(null) }, ["name"]);
    expect(compareCellChange(name, added)).toEqual({ kind: "new", value: v("Testland") });
    expect(compareCellChange(population, added)).toEqual({ kind: "unchanged", value: v(null) });
  });

  it("shows a removed record's values as removed", () => {
    const removed = row("Removed", { name: v("Testland") }, null, ["name"]);
    expect(compareCellChange(name, removed)).toEqual({ kind: "removed", old: v("Testland") });
  });

  it("compares only the changed attributes of a changed record", () => {
    const changed = row(
      "Changed",
      { name: v("Old"), population: v(1000) },
      { name: v("Old"), population: v(2500) },
      ["population"],
    );
    expect(compareCellChange(population, changed)).toEqual({
      kind: "changed",
      old: v(1000),
      value: v(2500),
    });
    expect(compareCellChange(name, changed)).toEqual({ kind: "unchanged", value: v("Old") });
  });

  it("shows a filled attribute as new and an emptied one as removed", () => {
    const filled = row("Changed", { population: v(null) }, { population: v(5) }, ["population"]);
    expect(compareCellChange(population, filled)).toEqual({ kind: "new", value: v(5) });
    const emptied = row("Changed", { population: v(5) }, { population: v(null) }, ["population"]);
    expect(compareCellChange(population, emptied)).toEqual({ kind: "removed", old: v(5) });
  });

  it("leaves out generated attributes", () => {
    const band = attribute("population_band", { generated: true });
    expect(comparedAttributes([name, band]).map((a) => a.name)).toEqual(["name"]);
  });
});
