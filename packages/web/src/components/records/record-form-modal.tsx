import type { EntityRecord, EntityTypeInfo, ScalarValue } from "@ledgerline/contract";
import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Modal from "react-bootstrap/Modal";
import Spinner from "react-bootstrap/Spinner";
import { FieldRow } from "./field-row.tsx";
import { fieldValue, sameValue, textOf } from "./field-value.ts";

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
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(fields.map((a) => [a.name, textOf(stored(a.name))])),
  );
  const [touched, setTouched] = useState<Record<string, boolean>>({});
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
    <Modal
      show
      onHide={onClose}
      backdrop="static"
      keyboard={false}
      size="lg"
      data-testid={props.testId ?? "record-form-modal"}
    >
      <Modal.Header>
        <Modal.Title as="h2" className="h5">
          {props.title}
        </Modal.Title>
      </Modal.Header>
      <Form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (ready && !busy) onSubmit(values);
        }}
      >
        <Modal.Body>
          {results.map(({ attr, result }) => {
            const id = `record-form-${attr.name}`;
            const showError = !result.ok && touched[attr.name] === true && !locked(attr.name);
            return (
              <FieldRow
                key={attr.name}
                context={context}
                attr={attr}
                id={id}
                value={texts[attr.name] ?? ""}
                required={!attr.nullable}
                disabled={busy || locked(attr.name)}
                invalid={showError}
                problem={result.ok ? undefined : result.reason}
                onChange={(text) => {
                  setTexts((t) => ({ ...t, [attr.name]: text }));
                  setTouched((t) => ({ ...t, [attr.name]: true }));
                }}
              />
            );
          })}
          {error && (
            <Alert variant="danger" className="mb-0" data-testid="record-form-error">
              {error}
            </Alert>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={!ready || busy}>
            {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            {props.okLabel}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
