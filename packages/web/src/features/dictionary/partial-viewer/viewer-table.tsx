import type { AttributeInfo, EntityRecord } from "@ledgerline/contract";
import type { KeyboardEvent } from "react";
import Table from "react-bootstrap/Table";
import { cellText } from "../../../components/records/cell-text.ts";

export interface ViewerTableProps {
  columns: AttributeInfo[];
  records: EntityRecord[];
  selectedId: number | null;
  onSelect: (keyId: number | null) => void;
  onOpen: (record: EntityRecord) => void;
}

/** The short column list with single-row selection: a click selects a row, another clears it. */
export function ViewerTable({ columns, records, selectedId, onSelect, onOpen }: ViewerTableProps) {
  const toggle = (keyId: number) => onSelect(keyId === selectedId ? null : keyId);
  const onKey = (event: KeyboardEvent, record: EntityRecord) => {
    if (event.key === " ") {
      event.preventDefault();
      toggle(record.entityKeyID);
    } else if (event.key === "Enter") onOpen(record);
  };

  return (
    <Table
      hover
      responsive
      size="sm"
      className="dictionary-table dictionary-viewer-table user-select-none mb-0"
      data-testid="viewer-table"
    >
      <thead>
        <tr>
          {columns.map((attr) => (
            <th key={attr.name} scope="col">
              {attr.uiName}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {records.map((record) => {
          const selected = record.entityKeyID === selectedId;
          return (
            <tr
              key={record.entityKeyID}
              tabIndex={0}
              aria-selected={selected}
              className={selected ? "table-primary" : undefined}
              onClick={() => toggle(record.entityKeyID)}
              onDoubleClick={() => onOpen(record)}
              onKeyDown={(event) => onKey(event, record)}
              data-testid="viewer-row"
            >
              {columns.map((attr) => (
                <td key={attr.name}>
                  <span className="dictionary-text">
                    {cellText(attr, record.requested.attrValues[attr.name])}
                  </span>
                </td>
              ))}
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
