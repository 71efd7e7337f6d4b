import type { EntityRecord, EntityTypeInfo, ScalarValue } from "@ledgerline/contract";
import { fieldValue, sameValue, textOf } from "./field-value.ts";
import { FieldsModal, useFieldTexts } from "./fields-modal.tsx";

export interface RecordFormModalProps {
  context: string;
  type: EntityTypeInfo;
  /** The attributes that get an input, in this order (formula and generated ones are left out). */
  attributes: readonly string[];
  /** The record to edit; without one the modal creates a record. */
  record?: EntityRecord;
  title: string;
  okLabel: string;
  busy?: boolean;
  error?: string;
  /** Create: every listed value. Edit: the changed values only. */
  onSubmit: (values: Record<string, ScalarValue>) => void;
  onClose: () => void;
  testId?: string;
}

/**
 * Create or edit a record through inputs for a given attribute list. OK waits until every field
 * is valid (and, when editing, something changed); identities cannot be edited.
 */
export function RecordFormModal(props: RecordFormModalProps) {
  const { context, type, record, busy = false, error, onSubmit, onClose } = props;
  const fields = props.attributes
    .map((name) => type.attributes.find((a) => a.name === name))
    .filter((a) => a !== undefined && a.formula === "" && !a.generated)
    .map((a) => a as NonNullable<typeof a>);
  const stored = (name: string) => record?.requested.attrValues[name]?.value;
  const { texts, touched, change } = useFieldTexts(() =>
    Object.fromEntries(fields.map((a) => [a.name, textOf(stored(a.name))])),
  );
  const locked = (name: string) => {
    const attr = fields.find((a) => a.name === name);
    return record !== undefined && (attr?.identity === true || attr?.editable === false);
  };

  const results = fields.map((attr) => ({ attr, result: fieldValue(attr, texts[attr.name]) }));
  const valid = results.every((r) => locked(r.attr.name) || r.result.ok);
  const values: Record<string, ScalarValue> = {};
  for (const { attr, result } of results) {
    if (!result.ok || locked(attr.name)) continue;
    if (record === undefined || !sameValue(result.value, stored(attr.name)))
      values[attr.name] = result.value;
  }
  const ready = valid && (record === undefined || Object.keys(values).length > 0);

  return (
    <FieldsModal
      context={context}
      title={props.title}
      testId={props.testId ?? "record-form-modal"}
      idPrefix="record-form"
      fields={results.map(({ attr, result }) => ({
        attr,
        result,
        required: !attr.nullable,
        disabled: busy || locked(attr.name),
        invalid: !result.ok && touched[attr.name] === true && !locked(attr.name),
      }))}
      texts={texts}
      onChange={change}
      okLabel={props.okLabel}
      ready={ready}
      busy={busy}
      error={error}
      errorTestId="record-form-error"
      onSubmit={() => onSubmit(values)}
      onClose={onClose}
    />
  );
}
