import type { AttributeInfo, CompareRow } from "@ledgerline/contract";
import {
  type Cell,
  type ColumnDef,
  getCoreRowModel,
  type Row,
  useReactTable,
} from "@tanstack/react-table";
import { useMemo } from "react";
import { ChangeBadge } from "../../components/changes/change-badge.tsx";
import { ChangeCell } from "../../components/changes/change-cell.tsx";
import { DataTable } from "../../components/data-table/data-table.tsx";
import { compareCellChange, KIND_EFFECTS } from "./compare-cells.ts";

interface CompareTableProps {
  attributes: readonly AttributeInfo[];
  rows: CompareRow[];
  loading: boolean;
  emptyText: string;
}

const TEST_IDS = {
  table: "compare-table",
  row: "compare-row",
  loading: "compare-loading",
  empty: "compare-empty",
};

function compareColumns(attributes: readonly AttributeInfo[]): ColumnDef<CompareRow>[] {
  return [
    { id: "change", header: "Change", enableSorting: false },
    ...attributes.map(
      (attr): ColumnDef<CompareRow> => ({
        id: attr.name,
        header: attr.uiName,
        enableSorting: false,
        meta: { attr },
      }),
    ),
  ];
}

const rowProps = ({ original: row }: Row<CompareRow>) => ({
  selected: false,
  onClick: () => {},
  data: { "data-kind": row.kind, "data-key-id": String(row.entityKeyID) },
});

/** The changed records of one page: what kind of change, then each attribute coloured. */
export function CompareTable({ attributes, rows, loading, emptyText }: CompareTableProps) {
  const columns = useMemo(() => compareColumns(attributes), [attributes]);
  const table = useReactTable({
    data: rows,
    columns,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => String(row.entityKeyID),
  });

  const renderCell = (cell: Cell<CompareRow, unknown>) => {
    const row = cell.row.original;
    const attr = cell.column.columnDef.meta?.attr;
    if (attr) return <ChangeCell attr={attr} change={compareCellChange(attr, row)} />;
    return (
      <td className="text-nowrap" title={row.label}>
        <ChangeBadge effect={KIND_EFFECTS[row.kind]}>{row.kind}</ChangeBadge>
      </td>
    );
  };

  return (
    <DataTable
      table={table}
      loading={loading}
      rowProps={rowProps}
      renderCell={renderCell}
      emptyText={emptyText}
      className="change-table history-compare-table"
      testIds={TEST_IDS}
    />
  );
}
