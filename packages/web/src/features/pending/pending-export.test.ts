import type { AttributeInfo, EntityRecord, PendingChange } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { pendingSheet } from "./pending-export.ts";

const attr = (name: string, dataType: AttributeInfo["dataType"]): AttributeInfo => ({
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
  rules: [],
});

const record: EntityRecord = {
  entityKeyID: 3,
  contextName: "reference",
  entityTypeName: "country",
  requested: {
    attrValues: { name: { value: "France" }, currency: { value: 49, label: "EUR - Euro" } },
    isDeleted: false,
  },
  keyAttrValues: {},
  version: 1,
};

const change = (action: PendingChange["action"], values: PendingChange["attrValues"]) => ({
  record,
  change: {
    action,
    entityEventID: 9,
    effectiveFrom: "",
    createDate: new Date(2026, 4, 6, 7, 8, 9).toISOString(),
    createdBy: "steward",
    attrValues: values,
  },
});

describe("pendingSheet", () => {
  it("writes the change and each attribute's old and new value", () => {
    const sheet = pendingSheet(
      [attr("name", "String"), attr("currency", "Reference")],
      [change("Update", { currency: { value: 148 } }), change("Delete", {})],
      (_attr, id) => (id === 148 ? "USD - US Dollar" : undefined),
    );
    expect(sheet.fields.map((f) => f.header)).toEqual([
      "Change type",
      "Change date",
      "Changed by",
      "NAME (old)",
      "NAME (new)",
      "CURRENCY (old)",
      "CURRENCY (new)",
    ]);
    expect(sheet.items[0]).toEqual({
      changeType: "Updated",
      changeDate: "2026/05/06 07:08:09",
      changedBy: "steward",
      "name.old": "France",
      "name.new": "France",
      "currency.old": "EUR - Euro",
      "currency.new": "USD - US Dollar",
    });
    expect(sheet.items[1]).toMatchObject({ "name.old": "France", "name.new": null });
  });
});
