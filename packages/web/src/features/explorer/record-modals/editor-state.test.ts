import type { AttributeInfo, EntityRecord } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import {
  canClear,
  canEdit,
  canUndo,
  cleared,
  editedTo,
  editedValues,
  type FieldEdit,
  updateRecordOf,
} from "./editor-state.ts";

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

const record: EntityRecord = {
  entityKeyID: 9,
  contextName: "reference",
  entityTypeName: "currency",
  requested: {
    attrValues: {
      code: { value: "ZZZ" },
      name: { value: "Zed" },
      minor_units: { value: 2 },
      active: { value: null },
    },
    isDeleted: false,
  },
  keyAttrValues: { code: "ZZZ" },
  version: 3,
};

const unchanged: FieldEdit = { status: "unchanged" };
const name = attribute("name", { nullable: false });
const minor = attribute("minor_units", { dataType: "Number" });
const active = attribute("active", { dataType: "Boolean" });
const code = attribute("code", { identity: true, editable: false, nullable: false });

describe("record editor rules", () => {
  it("allows edit only on editable fields not yet changed", () => {
    expect(canEdit(name, unchanged)).toBe(true);
    expect(canEdit(name, { status: "changed", value: "New" })).toBe(false);
    expect(canEdit(name, { status: "undone" })).toBe(true);
    expect(canEdit(code, unchanged)).toBe(false);
  });

  it("allows clear only on editable, nullable fields whose value is not null", () => {
    expect(canClear(minor, record, unchanged)).toBe(true);
    expect(canClear(minor, record, { status: "set-to-null" })).toBe(false);
    expect(canClear(active, record, unchanged)).toBe(false);
    expect(canClear(active, record, { status: "changed", value: true })).toBe(true);
    expect(canClear(name, record, unchanged)).toBe(false);
  });

  it("allows undo only on changed fields", () => {
    expect(canUndo(unchanged)).toBe(false);
    expect(canUndo({ status: "undone" })).toBe(false);
    expect(canUndo({ status: "changed", value: 3 })).toBe(true);
    expect(canUndo({ status: "set-to-null" })).toBe(true);
  });

  it("ignores an edit equal to the current value", () => {
    expect(editedTo(record, "name", unchanged, "Zed")).toBe(unchanged);
    expect(editedTo(record, "minor_units", unchanged, 4)).toEqual({
      status: "changed",
      value: 4,
      label: undefined,
    });
  });

  it("clears to null, or back to unchanged when the value was null already", () => {
    expect(cleared(record, "minor_units")).toEqual({ status: "set-to-null" });
    expect(cleared(record, "active")).toEqual({ status: "undone" });
  });
});

describe("updateRecordOf", () => {
  it("sends the key, the identity values and the changed fields only", () => {
    const edits: Record<string, FieldEdit> = {
      name: { status: "changed", value: "Zed dollar" },
      minor_units: { status: "set-to-null" },
      active: { status: "undone" },
    };
    expect(updateRecordOf(record, edits)).toEqual({
      entityKeyID: 9,
      code: "ZZZ",
      name: "Zed dollar",
      minor_units: null,
    });
  });
});

describe("editedValues", () => {
  it("gives every attribute its value as it would be saved, for the rule checks", () => {
    const edits: Record<string, FieldEdit> = {
      name: { status: "changed", value: "Zed dollar" },
      minor_units: { status: "set-to-null" },
    };
    expect(editedValues([code, name, minor, active], record, edits)).toEqual({
      code: "ZZZ",
      name: "Zed dollar",
      minor_units: null,
      active: null,
    });
  });
});
