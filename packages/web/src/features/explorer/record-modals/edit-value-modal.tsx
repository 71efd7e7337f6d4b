import type { AttributeInfo, ScalarValue } from "@ledgerline/contract";
import { useState } from "react";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Modal from "react-bootstrap/Modal";
import { FieldInput } from "../../../components/records/field-input.tsx";
import { fieldValue, textOf } from "../../../components/records/field-value.ts";
import {
  checkRules,
  type RecordValues,
  type RuleType,
  ruleHints,
  rulesOf,
} from "../../../components/records/rule-check.ts";
import { RuleNotes } from "../../../components/records/rule-notes.tsx";
import { usePickList } from "../../../components/records/use-pick-list.ts";

interface EditValueModalProps {
  context: string;
  attr: AttributeInfo;
  /** The type's rules, checked against `values` with this field's new value. */
  type: RuleType;
  /** The record's values as they stand in the editor. */
  values: RecordValues;
  initial: ScalarValue;
  onApply: (value: ScalarValue, label?: string) => void;
  onCancel: () => void;
}

/**
 * 'Editing <attribute>': one input by type; numbers are converted to numbers. The field's rules
 * are checked as the user types; OK waits while the value itself breaks an error rule (one
 * between attributes may be mended in another field, so it is only shown).
 */
export function EditValueModal(props: EditValueModalProps) {
  const { context, attr, type, values, initial, onApply, onCancel } = props;
  const [text, setText] = useState(textOf(initial));
  const result = fieldValue(attr, text);
  const check = checkRules(
    type,
    { ...values, [attr.name]: result.ok ? result.value : null },
    new Set([attr.name]),
  );
  const rules = rulesOf(check, attr.name);
  const refused = !result.ok || rules.errors.some((rule) => !rule.between);
  const { data: options } = usePickList(
    context,
    attr.dataType === "Reference" ? attr.referencedEntityType : undefined,
  );
  const apply = () => {
    if (!result.ok || refused) return;
    const label = options?.find((o) => o.id === result.value)?.label;
    onApply(result.value, label);
  };
  const id = `edit-value-${attr.name}`;

  return (
    <Modal show onHide={onCancel} centered data-testid="edit-value-modal" backdrop="static">
      <Modal.Header closeButton>
        <Modal.Title as="h3" className="h5">{`Editing ${attr.uiName}`}</Modal.Title>
      </Modal.Header>
      <Form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          apply();
        }}
      >
        <Modal.Body>
          <Form.Label htmlFor={id} className="visually-hidden">
            {attr.uiName}
          </Form.Label>
          <FieldInput
            context={context}
            attr={attr}
            id={id}
            value={text}
            onChange={setText}
            invalid={!result.ok || rules.errors.length > 0}
            autoFocus
          />
          {!result.ok && (
            <Form.Control.Feedback type="invalid">{result.reason}</Form.Control.Feedback>
          )}
          <RuleNotes name={attr.name} hints={ruleHints(type, attr)} rules={rules} feedback />
          {attr.uiDescription && <div className="form-text">{attr.uiDescription}</div>}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={refused}>
            OK
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
