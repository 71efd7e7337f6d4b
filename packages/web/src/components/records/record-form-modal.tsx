import type { EntityRecord, EntityTypeInfo, ScalarValue } from "@ledgerline/contract";
import { fieldValue, sameValue, textOf } from "./field-value.ts";
import { FieldsModal, useFieldTexts } from "./fields-modal.tsx";
import { checkRules, type RecordValues, ruleHints, rulesElsewhere, rulesOf } from "./rule-check.ts";

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
  /** Values to choose from by attribute name (see FieldInput). */
  choices?: Readonly<Record<string, readonly string[]>>;
}

/**
 * Create or edit a record through inputs for a given attribute list. OK waits until every field
 * is valid, no error rule fails (and, when editing, something changed); identities cannot be edited.
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
  // Rules see the record as it would be saved: the stored values with the form's on top.
  const merged: Record<string, RecordValues[string]> = {};
  for (const attr of type.attributes) merged[attr.name] = stored(attr.name);
  for (const { attr, result } of results)
    if (!locked(attr.name)) merged[attr.name] = result.ok ? result.value : null;
  const check = checkRules(
    type,
    merged,
    record === undefined ? undefined : new Set(Object.keys(values)),
  );
  const ready = valid && !check.blocked && (record === undefined || Object.keys(values).length > 0);

  return (
    <FieldsModal
      context={context}
      title={props.title}
      testId={props.testId ?? "record-form-modal"}
      idPrefix="record-form"
      fields={results.map(({ attr, result }) => {
        const rules = rulesOf(check, attr.name);
        return {
          attr,
          result,
          required: !attr.nullable,
          disabled: busy || locked(attr.name),
          invalid:
            (!result.ok && touched[attr.name] === true && !locked(attr.name)) ||
            rules.errors.length > 0,
          ruleHints: ruleHints(type, attr),
          rules,
          choices: props.choices?.[attr.name],
        };
      })}
      elsewhere={rulesElsewhere(check, type.attributes, new Set(fields.map((a) => a.name)))}
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
