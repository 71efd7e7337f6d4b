import type { AttributeInfo, AttrValue, EntityRecord, PendingChange } from "@ledgerline/contract";
import { type CellChange, isEmptyValue } from "../../components/changes/change-model.ts";
import { sameValue } from "../../components/records/field-value.ts";
import { effectOf } from "./change-kinds.ts";

/** One row of the pending table: a pending change with the record's approved state. */
export interface PendingRow {
  record: EntityRecord;
  change: PendingChange;
}

/** One row per pending change (a record has at most one, but the answer allows several). */
export function pendingRows(records: readonly EntityRecord[]): PendingRow[] {
  return records.flatMap((record) => (record.pending ?? []).map((change) => ({ record, change })));
}

/** Attributes a person proposes values for: formulas and generated ones follow from those. */
export function changeableAttributes(attributes: readonly AttributeInfo[]): AttributeInfo[] {
  return attributes.filter((a) => a.formula === "" && !a.generated);
}

/** A proposed value, with the approved value's label when both name the same thing. */
function withLabel(proposed: AttrValue, current: AttrValue | undefined): AttrValue {
  return proposed.label === undefined && current && sameValue(current.value, proposed.value)
    ? current
    : proposed;
}

/**
 * How one attribute of a pending change is shown. New records (Add, Create) show their values
 * as new; removals (Missing, Delete) show the approved values as removed; edits (Change, Update,
 * Amend) compare the attributes they carry with the approved values and leave the rest unchanged.
 */
export function cellChange(attr: AttributeInfo, { record, change }: PendingRow): CellChange {
  const current = record.requested.attrValues[attr.name];
  const carried = change.attrValues[attr.name];
  switch (effectOf(change.action)) {
    case "new": {
      // A proposed record's row holds its values too (with labels); the event has the rest.
      const value = carried ? withLabel(carried, current) : current;
      return isEmptyValue(value) ? { kind: "unchanged", value } : { kind: "new", value };
    }
    case "removed":
      return isEmptyValue(current)
        ? { kind: "unchanged", value: current }
        : { kind: "removed", old: current };
    case "changed": {
      if (carried === undefined) return { kind: "unchanged", value: current };
      const value = withLabel(carried, current);
      if (isEmptyValue(current) && isEmptyValue(value)) return { kind: "both-empty" };
      if (isEmptyValue(current)) return { kind: "new", value };
      if (isEmptyValue(value)) return { kind: "removed", old: current };
      if (sameValue(current.value, value.value)) return { kind: "unchanged", value: current };
      return { kind: "changed", old: current, value };
    }
  }
}
