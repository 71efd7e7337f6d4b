import type {
  AttributeInfo,
  EntityTypeInfo,
  SaveResponse,
  ScalarValue,
} from "@ledgerline/contract";
import { fieldValue } from "../../../components/records/field-value.ts";
import { FieldsModal, useFieldTexts } from "../../../components/records/fields-modal.tsx";
import {
  checkRules,
  ruleHints,
  rulesElsewhere,
  rulesOf,
} from "../../../components/records/rule-check.ts";
import { useSaveRecord } from "../use-save-record.ts";

interface AddRecordModalProps {
  context: string;
  type: EntityTypeInfo;
  onClose: () => void;
  onSaved: (answer: SaveResponse) => void;
}

/** Set by the system (not editable, not identity): shown, but never sent. */
const isSystemSet = (attr: AttributeInfo) => !attr.editable && !attr.identity;

/**
 * 'Add new <type>': one input per stored attribute, with its rules as hints; 'Add' waits until
 * every field is valid and no error rule fails.
 */
export function AddRecordModal({ context, type, onClose, onSaved }: AddRecordModalProps) {
  const fields = type.attributes.filter((a) => a.formula === "" && !a.generated);
  const { texts, touched, change } = useFieldTexts(() => ({}));
  const save = useSaveRecord();

  const results = fields.map((attr) => ({
    attr,
    result: isSystemSet(attr)
      ? ({ ok: true, value: null } as const)
      : fieldValue(attr, texts[attr.name] ?? ""),
  }));
  const valid = results.every((r) => r.result.ok);
  const record: Record<string, ScalarValue> = {};
  for (const { attr, result } of results) {
    if (result.ok && !isSystemSet(attr)) record[attr.name] = result.value;
  }
  const check = checkRules(type, record);

  const submit = () => {
    save.mutate(
      { context, entityType: type.name, record, action: "create" },
      { onSuccess: onSaved },
    );
  };

  return (
    <FieldsModal
      context={context}
      title={`Add new ${type.uiName}`}
      testId="add-record-modal"
      idPrefix="add"
      fields={results.map(({ attr, result }) => {
        const rules = rulesOf(check, attr.name);
        return {
          attr,
          result,
          required: !attr.nullable && !isSystemSet(attr),
          disabled: isSystemSet(attr) || save.isPending,
          invalid: (!result.ok && touched[attr.name] === true) || rules.errors.length > 0,
          hint: isSystemSet(attr) ? "set by the system" : undefined,
          ruleHints: ruleHints(type, attr),
          rules,
        };
      })}
      elsewhere={rulesElsewhere(check, type.attributes, new Set(fields.map((a) => a.name)))}
      texts={texts}
      onChange={change}
      okLabel="Add"
      ready={valid && !check.blocked}
      busy={save.isPending}
      error={save.isError ? save.error.message : undefined}
      errorTestId="add-record-error"
      onSubmit={submit}
      onClose={onClose}
    />
  );
}
