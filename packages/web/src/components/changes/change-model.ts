import type { AttrValue } from "@ledgerline/contract";

/** What a change does to its record; it decides the colours of its label, count and cells. */
export type ChangeEffect = "new" | "changed" | "removed";

/**
 * SPEC.md section 2 'Cell colouring': a new value, a changed one (old and new), a removed one,
 * an unchanged one, or a change between two empty values.
 */
export type CellChange =
  | { kind: "unchanged"; value: AttrValue | undefined }
  | { kind: "new"; value: AttrValue }
  | { kind: "changed"; old: AttrValue; value: AttrValue }
  | { kind: "removed"; old: AttrValue }
  | { kind: "both-empty" };

/** No value to show: absent, null or empty text. */
export function isEmptyValue(value: AttrValue | undefined): value is undefined {
  return value === undefined || value.value === null || value.value === "";
}
