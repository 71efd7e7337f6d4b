import type { AttributeInfo, EntityRecord, ScalarValue } from "@ledgerline/contract";
import { sameValue } from "../../../components/records/field-value.ts";

/** SPEC.md section 4 'Record editor, per field'. */
export type FieldStatus = "unchanged" | "changed" | "set-to-null" | "undone";

export interface FieldEdit {
  status: FieldStatus;
  /** The new value when changed. */
  value?: ScalarValue;
  /** The new value's label (references). */
  label?: string;
}

export type FieldEdits = Record<string, FieldEdit>;

const UNCHANGED: FieldEdit = { status: "unchanged" };

export const editOf = (edits: FieldEdits, name: string): FieldEdit => edits[name] ?? UNCHANGED;

export const isChanged = (edit: FieldEdit) =>
  edit.status === "changed" || edit.status === "set-to-null";

export function originalValue(record: EntityRecord, name: string): ScalarValue {
  return record.requested.attrValues[name]?.value ?? null;
}

/** The value the field would be saved with. */
export function currentValue(record: EntityRecord, name: string, edit: FieldEdit): ScalarValue {
  if (edit.status === "changed") return edit.value ?? null;
  if (edit.status === "set-to-null") return null;
  return originalValue(record, name);
}

/** Every attribute's value as the record would be saved: what the rules are checked against. */
export function editedValues(
  attributes: readonly AttributeInfo[],
  record: EntityRecord,
  edits: FieldEdits,
): Record<string, ScalarValue> {
  return Object.fromEntries(
    attributes.map((a) => [a.name, currentValue(record, a.name, editOf(edits, a.name))]),
  );
}

/** Edit: only editable attributes not already changed. */
export const canEdit = (attr: AttributeInfo, edit: FieldEdit) => attr.editable && !isChanged(edit);

/** Clear: only editable, nullable attributes whose current value is not null. */
export const canClear = (attr: AttributeInfo, record: EntityRecord, edit: FieldEdit) =>
  attr.editable && attr.nullable && currentValue(record, attr.name, edit) !== null;

/** Undo: only changed fields. */
export const canUndo = (edit: FieldEdit) => isChanged(edit);

/** The result of the edit sub-modal; a value equal to the current one is ignored. */
export function editedTo(
  record: EntityRecord,
  name: string,
  edit: FieldEdit,
  value: ScalarValue,
  label?: string,
): FieldEdit {
  if (sameValue(value, currentValue(record, name, edit))) return edit;
  if (sameValue(value, originalValue(record, name))) return { status: "undone" };
  return value === null ? { status: "set-to-null" } : { status: "changed", value, label };
}

/** Clear: set to null (back to unchanged when it was null to begin with). */
export function cleared(record: EntityRecord, name: string): FieldEdit {
  return originalValue(record, name) === null ? { status: "undone" } : { status: "set-to-null" };
}

/** The changed attributes and their new values. */
export function changedValues(
  record: EntityRecord,
  edits: FieldEdits,
): Record<string, ScalarValue> {
  return Object.fromEntries(
    Object.entries(edits)
      .filter(([, edit]) => isChanged(edit))
      .map(([name, edit]) => [name, currentValue(record, name, edit)]),
  );
}

/** 'Apply changes' sends the key, the identity values and the changed fields only. */
export function updateRecordOf(
  record: EntityRecord,
  edits: FieldEdits,
): Record<string, ScalarValue> {
  return {
    entityKeyID: record.entityKeyID,
    ...record.keyAttrValues,
    ...changedValues(record, edits),
  };
}
