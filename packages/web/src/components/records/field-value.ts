import type { AttributeInfo, DataType, ScalarValue } from "@ledgerline/contract";

export type FieldValue = { ok: true; value: ScalarValue } | { ok: false; reason: string };

/** Types whose non-nullable fields must be filled in (SPEC.md section 5 'Add record'). */
const REQUIRED_TYPES: readonly DataType[] = ["String", "Number", "Boolean", "Reference", "Date"];

/** The text an input shows for a stored value; "" for null. */
export function textOf(value: ScalarValue | undefined): string {
  return value === null || value === undefined ? "" : String(value);
}

/** Converts an input's text to the value to save; empty text is null. */
export function fieldValue(attr: AttributeInfo, text: string): FieldValue {
  const empty = text.trim() === "" || (attr.dataType === "Boolean" && text === "null");
  if (empty) {
    return !attr.nullable && REQUIRED_TYPES.includes(attr.dataType)
      ? { ok: false, reason: "required field" }
      : { ok: true, value: null };
  }
  switch (attr.dataType) {
    case "Number": {
      const value = Number(text.trim());
      return Number.isNaN(value) || text.trim() === ""
        ? { ok: false, reason: "not a number" }
        : { ok: true, value };
    }
    case "Boolean":
      return { ok: true, value: text === "true" };
    case "Reference":
      return { ok: true, value: Number(text) };
    case "Date":
      return /^\d{4}-\d{2}-\d{2}$/.test(text)
        ? { ok: true, value: text }
        : { ok: false, reason: "not a date" };
    default:
      return { ok: true, value: text };
  }
}

/** Values are the same for the purpose of an edit (numbers and their text compare equal). */
export function sameValue(a: ScalarValue | undefined, b: ScalarValue | undefined): boolean {
  return (a ?? null) === (b ?? null);
}
