import type { EntityRecord } from "@ledgerline/contract";
import type { Row, Table } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import { type KeyboardEvent, type ReactNode, useRef } from "react";

/** Pages longer than this render only the rows in view. */
const VIRTUAL_AFTER = 100;
const ROW_ESTIMATE_PX = 35;

interface RecordsTableBodyProps {
  table: Table<EntityRecord>;
  header: ReactNode;
  trimCells: boolean;
  selectedId: number | null;
  onSelect: (keyId: number | null) => void;
  onOpen: (record: EntityRecord) => void;
}

/** The scrolling table with a sticky header; rows outside the view are left out on long pages. */
export function RecordsTableBody({
  table,
  header,
  trimCells,
  selectedId,
  onSelect,
  onOpen,
}: RecordsTableBodyProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = table.getRowModel().rows;
  const virtual = rows.length > VIRTUAL_AFTER;
  const virtualizer = useVirtualizer({
    count: virtual ? rows.length : 0,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_ESTIMATE_PX,
    overscan: 12,
  });
  const items = virtualizer.getVirtualItems();
  const shown: { row: Row<EntityRecord>; index: number }[] = virtual
    ? items.map((item) => ({ row: rows[item.index], index: item.index }))
    : rows.map((row, index) => ({ row, index }));
  const padTop = virtual && items.length > 0 ? items[0].start : 0;
  const padBottom =
    virtual && items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const columnCount = table.getVisibleLeafColumns().length;

  const select = (record: EntityRecord) =>
    onSelect(record.entityKeyID === selectedId ? null : record.entityKeyID);
  const onKey = (event: KeyboardEvent, record: EntityRecord) => {
    if (event.key === " ") {
      event.preventDefault();
      select(record);
    } else if (event.key === "Enter") onOpen(record);
  };

  return (
    <div ref={scrollRef} className="explorer-table-scroll">
      <table
        className={`table table-sm table-hover align-middle mb-0 explorer-table ${trimCells ? "explorer-trim" : ""}`}
        data-testid="records-table"
      >
        <thead>{header}</thead>
        <tbody>
          {padTop > 0 && (
            <tr>
              <td colSpan={columnCount} style={{ height: padTop, padding: 0 }} />
            </tr>
          )}
          {shown.map(({ row, index }) => {
            const record = row.original;
            const selected = record.entityKeyID === selectedId;
            const classes = [
              record.requested.isDeleted ? "table-danger" : "",
              selected ? "explorer-row-selected" : "",
            ];
            return (
              <tr
                key={row.id}
                data-index={index}
                ref={virtual ? virtualizer.measureElement : undefined}
                className={classes.join(" ").trim() || undefined}
                aria-selected={selected}
                tabIndex={0}
                // Focus without scrolling: a wide row would otherwise jump sideways.
                onMouseDown={(event) => event.currentTarget.focus({ preventScroll: true })}
                onClick={() => select(record)}
                onDoubleClick={() => onOpen(record)}
                onKeyDown={(event) => onKey(event, record)}
                data-testid="record-row"
                data-discontinued={record.requested.isDeleted || undefined}
              >
                {row.getVisibleCells().map((cell) => {
                  const text = String(cell.getValue() ?? "");
                  const numeric = cell.column.columnDef.meta?.attr.dataType === "Number";
                  return (
                    <td key={cell.id} className={numeric ? "text-end" : undefined}>
                      <div
                        className="explorer-cell"
                        title={trimCells && text.length > 30 ? text : undefined}
                      >
                        {text}
                      </div>
                    </td>
                  );
                })}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr>
              <td colSpan={columnCount} style={{ height: padBottom, padding: 0 }} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
