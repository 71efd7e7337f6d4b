import type { AttributeInfo } from "@ledgerline/contract";
import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Modal from "react-bootstrap/Modal";
import Spinner from "react-bootstrap/Spinner";
import { FieldRow } from "./field-row.tsx";
import type { FieldValue } from "./field-value.ts";
import type { FieldRules, RuleHint } from "./rule-check.ts";
import { ElsewhereNotes } from "./rule-notes.tsx";

/** One input of a FieldsModal, with what the form makes of its text. */
export interface ModalField {
  attr: AttributeInfo;
  result: FieldValue;
  required: boolean;
  disabled: boolean;
  /** Outline the input and show the result's reason (and the error rules it breaks). */
  invalid: boolean;
  hint?: string;
  ruleHints?: readonly RuleHint[];
  rules?: FieldRules;
  /** The values to choose from, where the attribute's own rules do not list them. */
  choices?: readonly string[];
}

/** The texts of a form's inputs and which ones the user has changed. */
export function useFieldTexts(initial: () => Record<string, string>) {
  const [texts, setTexts] = useState<Record<string, string>>(initial);
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const change = (name: string, text: string) => {
    setTexts((t) => ({ ...t, [name]: text }));
    setTouched((t) => ({ ...t, [name]: true }));
  };
  return { texts, touched, change };
}

interface FieldsModalProps {
  context: string;
  title: string;
  testId: string;
  /** Input ids are `<idPrefix>-<attribute>`. */
  idPrefix: string;
  fields: readonly ModalField[];
  texts: Record<string, string>;
  onChange: (name: string, text: string) => void;
  okLabel: string;
  /** OK is enabled (and Enter submits) only when this holds. */
  ready: boolean;
  busy: boolean;
  error?: string;
  errorTestId: string;
  /** Rules broken on attributes without a field here. */
  elsewhere?: { label: string; rules: FieldRules }[];
  onSubmit: () => void;
  onClose: () => void;
}

/** A static modal form of record fields: one row per field, an error line, Cancel and OK. */
export function FieldsModal(props: FieldsModalProps) {
  const { busy, ready } = props;
  return (
    <Modal
      show
      onHide={props.onClose}
      backdrop="static"
      keyboard={false}
      size="lg"
      data-testid={props.testId}
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
          if (ready && !busy) props.onSubmit();
        }}
      >
        <Modal.Body>
          {props.fields.map(({ attr, result, ...field }) => (
            <FieldRow
              key={attr.name}
              context={props.context}
              attr={attr}
              id={`${props.idPrefix}-${attr.name}`}
              value={props.texts[attr.name] ?? ""}
              required={field.required}
              disabled={field.disabled}
              invalid={field.invalid}
              problem={result.ok ? undefined : result.reason}
              hint={field.hint}
              ruleHints={field.ruleHints}
              rules={field.rules}
              choices={field.choices}
              onChange={(text) => props.onChange(attr.name, text)}
            />
          ))}
          <ElsewhereNotes items={props.elsewhere ?? []} />
          {props.error && (
            <Alert variant="danger" className="mb-0" data-testid={props.errorTestId}>
              {props.error}
            </Alert>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={props.onClose} disabled={busy}>
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
