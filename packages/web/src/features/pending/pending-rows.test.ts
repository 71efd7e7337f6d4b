import type {
  AttributeInfo,
  AttrValue,
  EntityRecord,
  PendingAction,
  PendingChange,
} from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import type { CellChange } from "../../components/changes/change-model.ts";
import { cellChange, changeableAttributes, type PendingRow, pendingRows } from "./pending-rows.ts";

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

function record(values: Record<string, AttrValue>, pending: PendingChange[] = []): EntityRecord {
  return {
    entityKeyID: 7,
    contextName: "reference",
    entityTypeName: "country",
    requested: { attrValues: values, isDeleted: false },
    keyAttrValues: {},
    version: 1,
    pending,
  };
}

function change(action: PendingAction, values: Record<string, AttrValue> = {}): PendingChange {
  return {
    action,
    entityEventID: 40,
    effectiveFrom: "2026-01-02T03:04:05Z",
    createDate: "2026-01-02T03:04:05Z",
    createdBy: "steward",
    attrValues: values,
  };
}

const name = attribute("name");
const currency = attribute("currency", { dataType: "Reference" });
const population = attribute("population", { dataType: "Number" });

const approved = {
  name: { value: "France" },
  currency: { value: 49, label: "EUR - Euro" },
  population: { value: null },
};

const row = (action: PendingAction, values: Record<string, AttrValue> = {}): PendingRow => ({
  record: record(approved),
  change: change(action, values),
});

const kind = (c: CellChange) => c.kind;

describe("cellChange of new records", () => {
  it("shows the proposed values as new and empty ones plainly", () => {
    const proposed = row("Create", { name: { value: "Testland" }, population: { value: null } });
    expect(cellChange(name, proposed)).toEqual({ kind: "new", value: { value: "Testland" } });
    expect(kind(cellChange(population, proposed))).toBe("unchanged");
  });

  it("takes a reference's label from the proposed record's row", () => {
    const proposed = row("Add", { currency: { value: 49 } });
    expect(cellChange(currency, proposed)).toEqual({ kind: "new", value: approved.currency });
  });
});

describe("cellChange of removals", () => {
  it("shows every filled approved value as removed", () => {
    for (const action of ["Missing", "Delete"] as const) {
      expect(cellChange(name, row(action))).toEqual({ kind: "removed", old: approved.name });
      expect(kind(cellChange(population, row(action)))).toBe("unchanged");
    }
  });
});

describe("cellChange of edits", () => {
  it("shows a carried attribute as changed with its old and new value", () => {
    const edit = row("Update", { name: { value: "République française" } });
    expect(cellChange(name, edit)).toEqual({
      kind: "changed",
      old: approved.name,
      value: { value: "République française" },
    });
    expect(cellChange(currency, edit)).toEqual({ kind: "unchanged", value: approved.currency });
  });

  it("tells filled, emptied, equal and empty-to-empty values apart", () => {
    expect(kind(cellChange(population, row("Change", { population: { value: 5 } })))).toBe("new");
    expect(kind(cellChange(name, row("Amend", { name: { value: null } })))).toBe("removed");
    expect(kind(cellChange(name, row("Update", { name: { value: "France" } })))).toBe("unchanged");
    expect(kind(cellChange(population, row("Update", { population: { value: "" } })))).toBe(
      "both-empty",
    );
  });

  it("keeps the approved label when a reference points to the same record", () => {
    const same = row("Change", { currency: { value: 49 } });
    expect(cellChange(currency, same)).toEqual({ kind: "unchanged", value: approved.currency });
    const other = row("Change", { currency: { value: 148 } });
    expect(cellChange(currency, other)).toMatchObject({ kind: "changed", value: { value: 148 } });
  });
});

describe("pendingRows and changeableAttributes", () => {
  it("makes one row per pending change and leaves out records without one", () => {
    const rows = pendingRows([
      record(approved, [change("Update"), { ...change("Delete"), entityEventID: 41 }]),
      record(approved),
    ]);
    expect(rows.map((r) => r.change.entityEventID)).toEqual([40, 41]);
  });

  it("leaves out formula and generated attributes", () => {
    const attrs = [
      name,
      attribute("display", { formula: "name" }),
      attribute("band", { generated: true }),
    ];
    expect(changeableAttributes(attrs).map((a) => a.name)).toEqual(["name"]);
  });
});
