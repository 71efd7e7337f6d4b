import type { AttributeInfo, ChangeKind, CompareRow } from "@ledgerline/contract";
import {
  type CellChange,
  type ChangeEffect,
  isEmptyValue,
} from "../../components/changes/change-model.ts";

/** Added records look like new ones on the pending screen, Removed ones like removals. */
export const KIND_EFFECTS: Record<ChangeKind, ChangeEffect> = {
  Added: "new",
  Changed: "changed",
  Removed: "removed",
};

/** The compared attributes: generated ones are computed on reading and have no past. */
export function comparedAttributes(attributes: readonly AttributeInfo[]): AttributeInfo[] {
  return attributes.filter((a) => !a.generated);
}

/**
 * How one attribute of a compared record is coloured, as on the pending screen: an Added
 * record's values are new, a Removed record's values removed; a Changed record compares the
 * attributes that changed (filled: new, emptied: removed, else old and new) and shows the rest
 * unchanged.
 */
export function compareCellChange(attr: AttributeInfo, row: CompareRow): CellChange {
  const before = row.before?.[attr.name];
  const after = row.after?.[attr.name];
  if (row.kind === "Added")
    return isEmptyValue(after)
      ? { kind: "unchanged", value: after }
      : { kind: "new", value: after };
  if (row.kind === "Removed")
    return isEmptyValue(before)
      ? { kind: "unchanged", value: before }
      : { kind: "removed", old: before };
  if (!row.changedAttributes.includes(attr.name)) return { kind: "unchanged", value: after };
  if (isEmptyValue(after))
    return isEmptyValue(before) ? { kind: "both-empty" } : { kind: "removed", old: before };
  if (isEmptyValue(before)) return { kind: "new", value: after };
  return { kind: "changed", old: before, value: after };
}
