import type { AttributeInfo, EntityRecord } from "@ledgerline/contract";
import {
  getCoreRowModel,
  type OnChangeFn,
  type SortingState,
  useReactTable,
  type VisibilityState,
} from "@tanstack/react-table";
import { useMemo } from "react";
import Spinner from "react-bootstrap/Spinner";
import { recordColumns } from "./columns.tsx";
import { RecordsTableBody } from "./records-table-body.tsx";
import { SortableHeader } from "./sortable-header.tsx";

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
}

/** The records of one page: server-side sorting, single-row selection, long pages virtualised. */
export function RecordsTable(props: RecordsTableProps) {
  const { attributes, records, loading, sorting, onSortingChange, columnVisibility, trimCells } =
    props;
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

  return (
    <div className="explorer-table-frame border rounded shadow-sm bg-body position-relative">
      <RecordsTableBody
        table={table}
        trimCells={trimCells}
        selectedId={props.selectedId}
        onSelect={props.onSelect}
        onOpen={props.onOpen}
        header={table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => (
              <SortableHeader key={header.id} header={header} />
            ))}
          </tr>
        ))}
      />
      {loading && (
        <div className="explorer-loading" data-testid="explorer-loading">
          <Spinner animation="border" variant="primary" role="status">
            <span className="visually-hidden">Loading…</span>
          </Spinner>
        </div>
      )}
      {!loading && records.length === 0 && (
        <p className="text-center text-body-secondary py-4 mb-0" data-testid="explorer-empty">
          No records
        </p>
      )}
    </div>
  );
}
