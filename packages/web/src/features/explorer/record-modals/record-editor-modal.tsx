import type { AttributeInfo, EntityTypeInfo, SaveResponse } from "@ledgerline/contract";
import { useMemo, useRef, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Modal from "react-bootstrap/Modal";
import Spinner from "react-bootstrap/Spinner";
import Tab from "react-bootstrap/Tab";
import Tabs from "react-bootstrap/Tabs";
import { checkRules, rulesElsewhere } from "../../../components/records/rule-check.ts";
import { ElsewhereNotes } from "../../../components/records/rule-notes.tsx";
import { useRecord } from "../use-records.ts";
import { useSaveRecord } from "../use-save-record.ts";
import { EditValueModal } from "./edit-value-modal.tsx";
import { EditorFieldsTable } from "./editor-fields-table.tsx";
import {
  changedValues,
  cleared,
  currentValue,
  editedTo,
  editedValues,
  editOf,
  type FieldEdits,
  updateRecordOf,
} from "./editor-state.ts";
import { HistoryList } from "./history-list.tsx";

interface RecordEditorModalProps {
  context: string;
  type: EntityTypeInfo;
  keyId: number;
  onClose: () => void;
  onSaved: (answer: SaveResponse) => void;
}

/**
 * Edits one record field by field and sends only what changed; its history on a second tab. The
 * rules are checked on the record as edited: 'Apply changes' waits while a change breaks an error
 * rule (what the stored record breaks already is shown, and left to the user).
 */
export function RecordEditorModal({
  context,
  type,
  keyId,
  onClose,
  onSaved,
}: RecordEditorModalProps) {
  const { data: record, isLoading } = useRecord(context, type.name, keyId);
  const [edits, setEdits] = useState<FieldEdits>({});
  const [editing, setEditing] = useState<AttributeInfo | null>(null);
  const save = useSaveRecord();
  const fields = type.attributes.filter((a) => a.formula === "");
  const changed = useMemo(
    () => new Set(record ? Object.keys(changedValues(record, edits)) : []),
    [record, edits],
  );
  const changes = changed.size;
  const values = useMemo(
    () => (record ? editedValues(type.attributes, record, edits) : {}),
    [type, record, edits],
  );
  const check = useMemo(() => checkRules(type, values, changed), [type, values, changed]);
  const title = record?.label ?? Object.values(record?.keyAttrValues ?? {}).join(" / ");

  // The 'Edit' button that opened the value's dialog is disabled once the value is edited, so
  // the dialog cannot give the focus back to it: the field's 'Undo' takes it (WCAG 2.4.3).
  const body = useRef<HTMLDivElement>(null);
  const focusUndoOf = (name: string) =>
    window.setTimeout(() =>
      body.current?.querySelector<HTMLButtonElement>(`[data-undo="${CSS.escape(name)}"]`)?.focus(),
    );

  const apply = () => {
    if (!record) return;
    save.mutate(
      {
        context,
        entityType: type.name,
        action: "update",
        record: updateRecordOf(record, edits),
        expectedVersion: record.version,
      },
      { onSuccess: onSaved },
    );
  };

  return (
    <>
      <Modal show onHide={onClose} size="xl" backdrop="static" data-testid="record-editor-modal">
        <Modal.Header closeButton={!save.isPending}>
          <Modal.Title as="h2" className="h5">
            {`Edit ${type.uiName}`}
            {title && <span className="text-body-secondary fw-normal ms-2">{title}</span>}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body ref={body}>
          {isLoading || !record ? (
            <div className="text-center py-4">
              <Spinner role="status" aria-label="Loading record" />
            </div>
          ) : (
            <Tabs defaultActiveKey="fields" className="mb-3" mountOnEnter>
              <Tab eventKey="fields" title="Fields">
                <EditorFieldsTable
                  attributes={fields}
                  type={type}
                  check={check}
                  record={record}
                  edits={edits}
                  onEdit={setEditing}
                  onClear={(attr) =>
                    setEdits((e) => ({ ...e, [attr.name]: cleared(record, attr.name) }))
                  }
                  onUndo={(attr) => setEdits((e) => ({ ...e, [attr.name]: { status: "undone" } }))}
                />
                <ElsewhereNotes
                  className="mt-3"
                  items={rulesElsewhere(check, type.attributes, new Set(fields.map((a) => a.name)))}
                />
              </Tab>
              <Tab eventKey="history" title="History">
                <HistoryList
                  context={context}
                  entityType={type.name}
                  typeUiName={type.uiName}
                  keyId={keyId}
                  attributes={type.attributes}
                />
              </Tab>
            </Tabs>
          )}
          {save.isError && (
            <Alert variant="danger" className="mt-3 mb-0" data-testid="editor-error">
              {save.error.message}
            </Alert>
          )}
        </Modal.Body>
        <Modal.Footer>
          <div className="me-auto small">
            <span className="text-body-secondary" data-testid="editor-change-count">
              {changes === 0 ? "No changes" : `${changes} field${changes === 1 ? "" : "s"} changed`}
            </span>
            {check.blocked && (
              <span className="text-danger ms-2" data-testid="editor-rule-blocked">
                <i className="bi bi-x-circle-fill me-1" aria-hidden="true" />A change breaks a rule
              </span>
            )}
          </div>
          <Button variant="outline-secondary" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            onClick={apply}
            disabled={changes === 0 || check.blocked || save.isPending}
          >
            {save.isPending && <Spinner size="sm" className="me-2" aria-hidden="true" />}
            Apply changes
          </Button>
        </Modal.Footer>
      </Modal>
      {editing && record && (
        <EditValueModal
          context={context}
          attr={editing}
          type={type}
          values={values}
          initial={currentValue(record, editing.name, editOf(edits, editing.name))}
          onCancel={() => setEditing(null)}
          onApply={(value, label) => {
            setEdits((e) => ({
              ...e,
              [editing.name]: editedTo(record, editing.name, editOf(e, editing.name), value, label),
            }));
            setEditing(null);
            focusUndoOf(editing.name);
          }}
        />
      )}
    </>
  );
}
