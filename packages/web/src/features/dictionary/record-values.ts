import type { EntityRecord, ScalarValue } from "@ledgerline/contract";

/** The stored value of an attribute (null when absent). */
export const storedValue = (record: EntityRecord, name: string): ScalarValue =>
  record.requested.attrValues[name]?.value ?? null;

/** The value as text: a reference by its label, null as "". */
export function storedText(record: EntityRecord, name: string): string {
  const cell = record.requested.attrValues[name];
  if (!cell || cell.value === null) return "";
  return cell.label ?? String(cell.value);
}
