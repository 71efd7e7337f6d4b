import type {
  AttributeInfo,
  EntityTypeInfo,
  SaveResponse,
  ScalarValue,
} from "@ledgerline/contract";
import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Modal from "react-bootstrap/Modal";
import Spinner from "react-bootstrap/Spinner";
import { FieldRow } from "../../../components/records/field-row.tsx";
import { fieldValue } from "../../../components/records/field-value.ts";
import { useSaveRecord } from "../use-save-record.ts";

interface AddRecordModalProps {
  context: string;
  type: EntityTypeInfo;
  onClose: () => void;
  onSaved: (answer: SaveResponse) => void;
}

/** Set by the system (not editable, not identity): shown, but never sent. */
const isSystemSet = (attr: AttributeInfo) => !attr.editable && !attr.identity;

/** 'Add new <type>': one input per stored attribute; 'Add' waits until every field is valid. */
export function AddRecordModal({ context, type, onClose, onSaved }: AddRecordModalProps) {
  const fields = type.attributes.filter((a) => a.formula === "" && !a.generated);
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [touched, setTouched] = useState<Record<string, boolean>>({});
  const save = useSaveRecord();

  const results = fields.map((attr) => ({
    attr,
    result: isSystemSet(attr)
      ? ({ ok: true, value: null } as const)
      : fieldValue(attr, texts[attr.name] ?? ""),
  }));
  const valid = results.every((r) => r.result.ok);

  const submit = () => {
    const record: Record<string, ScalarValue> = {};
    for (const { attr, result } of results) {
      if (result.ok && !isSystemSet(attr)) record[attr.name] = result.value;
    }
    save.mutate(
      { context, entityType: type.name, record, action: "create" },
      { onSuccess: onSaved },
    );
  };

  return (
    <Modal
      show
      onHide={onClose}
      backdrop="static"
      keyboard={false}
      size="lg"
      data-testid="add-record-modal"
    >
      <Modal.Header>
        <Modal.Title as="h2" className="h5">{`Add new ${type.uiName}`}</Modal.Title>
      </Modal.Header>
      <Form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (valid && !save.isPending) submit();
        }}
      >
        <Modal.Body>
          {results.map(({ attr, result }) => {
            const id = `add-${attr.name}`;
            const showError = !result.ok && touched[attr.name];
            return (
              <FieldRow
                key={attr.name}
                context={context}
                attr={attr}
                id={id}
                value={texts[attr.name] ?? ""}
                required={!attr.nullable && !isSystemSet(attr)}
                disabled={isSystemSet(attr) || save.isPending}
                invalid={showError}
                problem={result.ok ? undefined : result.reason}
                hint={isSystemSet(attr) ? "set by the system" : undefined}
                onChange={(text) => {
                  setTexts((t) => ({ ...t, [attr.name]: text }));
                  setTouched((t) => ({ ...t, [attr.name]: true }));
                }}
              />
            );
          })}
          {save.isError && (
            <Alert variant="danger" className="mb-0" data-testid="add-record-error">
              {save.error.message}
            </Alert>
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" disabled={!valid || save.isPending}>
            {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Add
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
