import type { AttributeInfo, AttrValue, ScalarValue } from "@ledgerline/contract";

/** How a stored value reads in the table: references by label, empty for null. */
export function cellText(attr: AttributeInfo, cell: AttrValue | undefined): string {
  if (!cell || cell.value === null) return "";
  if (attr.dataType === "Reference") return cell.label ?? String(cell.value);
  return String(cell.value);
}

/** How a value reads in the record editor and history: null is shown as 'null'. */
export function valueText(value: ScalarValue | undefined, label?: string): string {
  if (value === null || value === undefined) return "null";
  return label ?? String(value);
}
