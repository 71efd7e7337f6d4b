import type { AttributeInfo, EntityRecord } from "@ledgerline/contract";
import {
  type Cell,
  getCoreRowModel,
  type OnChangeFn,
  type Row,
  type SortingState,
  useReactTable,
  type VisibilityState,
} from "@tanstack/react-table";
import { type KeyboardEvent, useMemo } from "react";
import { DataTable } from "../../../components/data-table/data-table.tsx";
import { CellBreachMark, cellBreaches } from "./cell-breaches.tsx";
import { recordColumns } from "./columns.tsx";

interface RecordsTableProps {
  attributes: readonly AttributeInfo[];
  records: EntityRecord[];
  loading: boolean;
  sorting: SortingState;
  onSortingChange: OnChangeFn<SortingState>;
  columnVisibility: VisibilityState;
  trimCells: boolean;
  selectedId: number | null;
  onSelect: (keyId: number | null) => void;
  onOpen: (record: EntityRecord) => void;
  /** What an empty page says (default 'No records'). */
  emptyText?: string;
}

const TEST_IDS = {
  table: "records-table",
  row: "record-row",
  loading: "explorer-loading",
  empty: "explorer-empty",
};

/** The records of one page: server-side sorting, single-row selection, long pages virtualised. */
export function RecordsTable(props: RecordsTableProps) {
  const { attributes, records, sorting, onSortingChange, columnVisibility, trimCells } = props;
  const { selectedId, onSelect, onOpen } = props;
  const columns = useMemo(() => recordColumns(attributes), [attributes]);
  const table = useReactTable({
    data: records,
    columns,
    state: { sorting, columnVisibility },
    onSortingChange,
    manualSorting: true,
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (record) => String(record.entityKeyID),
  });

  const select = (record: EntityRecord) =>
    onSelect(record.entityKeyID === selectedId ? null : record.entityKeyID);
  const onKey = (event: KeyboardEvent, record: EntityRecord) => {
    if (event.key === " ") {
      event.preventDefault();
      select(record);
    } else if (event.key === "Enter") onOpen(record);
  };

  const rowProps = ({ original: record }: Row<EntityRecord>) => ({
    selected: record.entityKeyID === selectedId,
    className: record.requested.isDeleted ? "table-danger" : undefined,
    onClick: () => select(record),
    onDoubleClick: () => onOpen(record),
    onKeyDown: (event: KeyboardEvent) => onKey(event, record),
    data: { "data-discontinued": record.requested.isDeleted || undefined },
  });

  const renderCell = (cell: Cell<EntityRecord, unknown>) => {
    const text = String(cell.getValue() ?? "");
    const numeric = cell.column.columnDef.meta?.attr.dataType === "Number";
    const record = cell.row.original;
    const breaches = cellBreaches(record.ruleBreaches, cell.column.id);
    const classes = [
      numeric && "text-end",
      breaches && `explorer-breach-cell explorer-breach-${breaches.severity}`,
    ].filter(Boolean);
    return (
      <td className={classes.length > 0 ? classes.join(" ") : undefined}>
        <div className="data-cell" title={trimCells && text.length > 30 ? text : undefined}>
          {record.requested.isDeleted && cell.row.getVisibleCells()[0]?.id === cell.id && (
            // Said in words too, not by the row's red alone (WCAG 1.4.1).
            <span
              className="bi bi-archive me-1"
              role="img"
              aria-label="Discontinued"
              title="Discontinued"
            />
          )}
          {breaches && (
            <CellBreachMark
              id={`rule-breaches-${record.entityKeyID}-${cell.column.id}`}
              breaches={breaches}
            />
          )}
          {text}
        </div>
      </td>
    );
  };

  return (
    <DataTable
      table={table}
      loading={props.loading}
      rowProps={rowProps}
      renderCell={renderCell}
      emptyText={props.emptyText}
      className={trimCells ? "explorer-trim" : ""}
      testIds={TEST_IDS}
    />
  );
}
