import type { AttributeInfo, ScalarValue } from "@ledgerline/contract";
import { useState } from "react";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Modal from "react-bootstrap/Modal";
import { FieldInput } from "../../../components/records/field-input.tsx";
import { fieldValue, textOf } from "../../../components/records/field-value.ts";
import { usePickList } from "../../../components/records/use-pick-list.ts";

interface EditValueModalProps {
  context: string;
  attr: AttributeInfo;
  initial: ScalarValue;
  onApply: (value: ScalarValue, label?: string) => void;
  onCancel: () => void;
}

/** 'Editing <attribute>': one input by type; numbers are converted to numbers. */
export function EditValueModal({ context, attr, initial, onApply, onCancel }: EditValueModalProps) {
  const [text, setText] = useState(textOf(initial));
  const result = fieldValue(attr, text);
  const { data: options } = usePickList(
    context,
    attr.dataType === "Reference" ? attr.referencedEntityType : undefined,
  );
  const apply = () => {
    if (!result.ok) return;
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
            invalid={!result.ok}
            autoFocus
          />
          {!result.ok && (
            <Form.Control.Feedback type="invalid">{result.reason}</Form.Control.Feedback>
          )}
          {attr.uiDescription && <div className="form-text">{attr.uiDescription}</div>}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={!result.ok}>
            OK
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
