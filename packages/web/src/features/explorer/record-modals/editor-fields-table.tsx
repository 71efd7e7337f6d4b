import type { AttributeInfo, EntityRecord } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import Table from "react-bootstrap/Table";
import { valueText } from "../../../components/records/cell-text.ts";
import {
  type RuleCheck,
  type RuleType,
  ruleHints,
  rulesOf,
} from "../../../components/records/rule-check.ts";
import { RuleNotes } from "../../../components/records/rule-notes.tsx";
import {
  canClear,
  canEdit,
  canUndo,
  editOf,
  type FieldEdit,
  type FieldEdits,
} from "./editor-state.ts";

interface EditorFieldsTableProps {
  attributes: readonly AttributeInfo[];
  type: RuleType;
  /** The rules the record breaks as edited. */
  check: RuleCheck;
  record: EntityRecord;
  edits: FieldEdits;
  onEdit: (attr: AttributeInfo) => void;
  onClear: (attr: AttributeInfo) => void;
  onUndo: (attr: AttributeInfo) => void;
}

function Value({ text, isNew = false }: { text: string; isNew?: boolean }) {
  const classes = ["explorer-value", text === "null" ? "explorer-value-null" : ""];
  if (isNew) classes.push("fw-semibold text-success-emphasis");
  return <span className={classes.join(" ")}>{text}</span>;
}

/** Old value, and the new one beside it when the field was changed. */
function FieldValueCell({
  record,
  attr,
  edit,
}: {
  record: EntityRecord;
  attr: AttributeInfo;
  edit: FieldEdit;
}) {
  const cell = record.requested.attrValues[attr.name];
  const old = <Value text={valueText(cell?.value, cell?.label)} />;
  const arrow = (
    <>
      <i className="bi bi-arrow-right mx-2 text-body-secondary" aria-hidden="true" />
      <span className="visually-hidden">becomes</span>
    </>
  );
  switch (edit.status) {
    case "unchanged":
    case "undone":
      return old;
    case "changed":
      return (
        <span className="d-inline-flex flex-wrap align-items-center">
          <del className="text-body-secondary">{old}</del>
          {arrow}
          <Value text={valueText(edit.value, edit.label)} isNew />
        </span>
      );
    case "set-to-null":
      return (
        <span className="d-inline-flex flex-wrap align-items-center">
          <del className="text-body-secondary">{old}</del>
          {arrow}
          <Value text="null" isNew />
        </span>
      );
    default:
      return <span className="text-danger">render error</span>;
  }
}

/** Field / Action / Value for every non-formula attribute; under each value its rules. */
export function EditorFieldsTable({
  attributes,
  type,
  check,
  record,
  edits,
  onEdit,
  onClear,
  onUndo,
}: EditorFieldsTableProps) {
  return (
    <Table
      size="sm"
      hover
      className="explorer-editor-table align-middle mb-0"
      data-testid="editor-fields"
    >
      <thead className="table-light">
        <tr>
          <th scope="col" style={{ width: "22%" }}>
            Field
          </th>
          <th scope="col" style={{ width: "9rem" }}>
            Action
          </th>
          <th scope="col">Value</th>
        </tr>
      </thead>
      <tbody>
        {attributes.map((attr) => {
          const edit = editOf(edits, attr.name);
          return (
            <tr
              key={attr.name}
              data-testid={`editor-row-${attr.name}`}
              className={canUndo(edit) ? "table-warning" : undefined}
            >
              <th scope="row" className="fw-semibold" title={attr.uiDescription || undefined}>
                {attr.uiName}
                {attr.identity && (
                  <i
                    className="bi bi-key ms-2 text-body-secondary"
                    title="Identity"
                    aria-hidden="true"
                  />
                )}
              </th>
              <td>
                <div className="btn-group btn-group-sm">
                  <Button
                    variant="outline-primary"
                    disabled={!canEdit(attr, edit)}
                    onClick={() => onEdit(attr)}
                    title="Edit"
                    aria-label={`Edit ${attr.uiName}`}
                  >
                    <i className="bi bi-pencil" aria-hidden="true" />
                  </Button>
                  <Button
                    variant="outline-danger"
                    disabled={!canClear(attr, record, edit)}
                    onClick={() => onClear(attr)}
                    title="Clear (set to null)"
                    aria-label={`Clear ${attr.uiName}`}
                  >
                    <i className="bi bi-eraser" aria-hidden="true" />
                  </Button>
                  <Button
                    variant="outline-secondary"
                    disabled={!canUndo(edit)}
                    onClick={() => onUndo(attr)}
                    title="Undo"
                    aria-label={`Undo ${attr.uiName}`}
                    data-undo={attr.name}
                  >
                    <i className="bi bi-arrow-counterclockwise" aria-hidden="true" />
                  </Button>
                </div>
              </td>
              <td data-testid={`editor-value-${attr.name}`}>
                <FieldValueCell record={record} attr={attr} edit={edit} />
                <RuleNotes
                  name={attr.name}
                  hints={ruleHints(type, attr)}
                  rules={rulesOf(check, attr.name)}
                  feedback={false}
                />
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
