import type { AttributeInfo } from "@ledgerline/contract";
import {
  type Cell,
  type ColumnDef,
  getCoreRowModel,
  type OnChangeFn,
  type Row,
  type SortingState,
  useReactTable,
} from "@tanstack/react-table";
import { type KeyboardEvent, type MouseEvent, useMemo } from "react";
import { ChangeCell } from "../../components/changes/change-cell.tsx";
import { DataTable } from "../../components/data-table/data-table.tsx";
import { ChangeKindBadge } from "./change-kind-badge.tsx";
import { changeDateText } from "./change-kinds.ts";
import { cellChange, type PendingRow } from "./pending-rows.ts";
import { RuleBreachBadge } from "./rule-breach-badge.tsx";
import type { ClickKeys } from "./selection.ts";

interface PendingTableProps {
  /** The attribute columns, after 'Change type' and 'Change date'. */
  attributes: readonly AttributeInfo[];
  /** Every attribute of the type: names the attributes of rule breaches. */
  typeAttributes: readonly AttributeInfo[];
  rows: PendingRow[];
  loading: boolean;
  sorting: SortingState;
  onSortingChange: OnChangeFn<SortingState>;
  selected: ReadonlySet<number>;
  onRowClick: (eventId: number, keys: ClickKeys) => void;
  onSelectPage: () => void;
}

const TEST_IDS = {
  table: "pending-table",
  row: "pending-row",
  loading: "pending-loading",
  empty: "pending-empty",
};

function pendingColumns(attributes: readonly AttributeInfo[]): ColumnDef<PendingRow>[] {
  return [
    { id: "changeType", header: "Change type", enableSorting: false },
    { id: "changeDate", header: "Change date", enableSorting: false },
    ...attributes.map(
      (attr): ColumnDef<PendingRow> => ({
        id: attr.name,
        header: attr.uiName,
        enableSorting: true,
        meta: { attr },
      }),
    ),
  ];
}

const keysOf = (event: MouseEvent | KeyboardEvent): ClickKeys => ({
  shift: event.shiftKey,
  toggle: event.ctrlKey || event.metaKey,
});

/**
 * The pending changes of one page, one row each. Click selects a row, ctrl/cmd-click adds or
 * removes one, shift-click selects a range; space toggles the focused row, ctrl/cmd+A the page.
 */
export function PendingTable(props: PendingTableProps) {
  const { attributes, rows, selected, onRowClick, onSelectPage } = props;
  const columns = useMemo(() => pendingColumns(attributes), [attributes]);
  const table = useReactTable({
    data: rows,
    columns,
    state: { sorting: props.sorting },
    onSortingChange: props.onSortingChange,
    manualSorting: true,
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(row.change.entityEventID),
  });

  const rowProps = ({ original: row }: Row<PendingRow>) => {
    const id = row.change.entityEventID;
    return {
      selected: selected.has(id),
      onClick: (event: MouseEvent) => onRowClick(id, keysOf(event)),
      // Shift-click selects rows, not the text between them.
      onMouseDown: (event: MouseEvent) => {
        if (event.shiftKey) event.preventDefault();
      },
      onKeyDown: (event: KeyboardEvent) => {
        if (event.key === " ") {
          event.preventDefault();
          onRowClick(id, { shift: event.shiftKey, toggle: true });
        } else if (event.key.toLowerCase() === "a" && (event.ctrlKey || event.metaKey)) {
          event.preventDefault();
          onSelectPage();
        }
      },
      data: { "data-event-id": String(id), "data-action": row.change.action },
    };
  };

  const renderCell = (cell: Cell<PendingRow, unknown>) => {
    const row = cell.row.original;
    const attr = cell.column.columnDef.meta?.attr;
    if (attr) return <ChangeCell attr={attr} change={cellChange(attr, row)} />;
    if (cell.column.id === "changeType")
      return (
        <td className="text-nowrap">
          <ChangeKindBadge action={row.change.action} />
          <RuleBreachBadge
            eventId={row.change.entityEventID}
            breaches={row.change.ruleBreaches}
            attributes={props.typeAttributes}
          />
        </td>
      );
    return (
      <td className="text-nowrap text-body-secondary" title={`by ${row.change.createdBy}`}>
        {changeDateText(row.change.createDate)}
      </td>
    );
  };

  return (
    <DataTable
      table={table}
      loading={props.loading}
      rowProps={rowProps}
      renderCell={renderCell}
      emptyText="No pending changes"
      className="change-table"
      testIds={TEST_IDS}
    />
  );
}
