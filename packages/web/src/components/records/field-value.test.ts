import type { AttributeInfo } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { fieldValue } from "./field-value.ts";

function attribute(dataType: AttributeInfo["dataType"], nullable: boolean): AttributeInfo {
  return {
    name: "a",
    uiName: "A",
    uiDescription: "",
    uiSequence: 1,
    dataType,
    nullable,
    identity: false,
    generated: false,
    formula: "",
    editable: true,
    filter: true,
    rules: [],
  };
}

describe("fieldValue", () => {
  it("requires non-nullable fields to be filled in", () => {
    for (const type of ["String", "Number", "Boolean", "Reference"] as const) {
      expect(fieldValue(attribute(type, false), "")).toEqual({
        ok: false,
        reason: "required field",
      });
    }
    expect(fieldValue(attribute("String", false), "   ").ok).toBe(false);
  });

  it("turns empty nullable fields (and the boolean 'null') into null", () => {
    expect(fieldValue(attribute("String", true), "")).toEqual({ ok: true, value: null });
    expect(fieldValue(attribute("Boolean", true), "null")).toEqual({ ok: true, value: null });
  });

  it("converts numbers, booleans and reference ids", () => {
    expect(fieldValue(attribute("Number", true), "2.5")).toEqual({ ok: true, value: 2.5 });
    expect(fieldValue(attribute("Number", true), "two")).toEqual({
      ok: false,
      reason: "not a number",
    });
    expect(fieldValue(attribute("Boolean", false), "false")).toEqual({ ok: true, value: false });
    expect(fieldValue(attribute("Reference", false), "17")).toEqual({ ok: true, value: 17 });
  });

  it("keeps text as typed, line breaks included", () => {
    expect(fieldValue(attribute("String", false), "a\nb ")).toEqual({ ok: true, value: "a\nb " });
  });
});
