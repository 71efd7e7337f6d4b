import type { Cell, Row, Table } from "@tanstack/react-table";
import { useVirtualizer } from "@tanstack/react-virtual";
import {
  Fragment,
  type KeyboardEvent,
  type MouseEvent,
  type ReactNode,
  useEffect,
  useRef,
  useState,
} from "react";
import Spinner from "react-bootstrap/Spinner";
import { revealInFrame } from "../reveal-in-frame.ts";
import "./column-meta.ts";
import "./data-table.css";
import { SortableHeader } from "./sortable-header.tsx";

/** Pages longer than this render only the rows in view. */
const VIRTUAL_AFTER = 100;
const ROW_ESTIMATE_PX = 35;
/** Rows moved by Page Up and Page Down. */
const PAGE_ROWS = 10;

/** The row index a key moves the focus to from `index`, or null for a key that does not move it. */
function rowAfterKey(key: string, index: number, count: number): number | null {
  const moves: Record<string, number> = {
    ArrowDown: index + 1,
    ArrowUp: index - 1,
    PageDown: index + PAGE_ROWS,
    PageUp: index - PAGE_ROWS,
    Home: 0,
    End: count - 1,
  };
  const to = moves[key];
  return to === undefined ? null : Math.max(0, Math.min(count - 1, to));
}

/** How one row looks and answers the mouse and keyboard. */
export interface DataRowProps {
  selected: boolean;
  className?: string;
  onClick: (event: MouseEvent<HTMLTableRowElement>) => void;
  onDoubleClick?: () => void;
  /** After the row took the focus (shift-click handlers prevent the text selection here). */
  onMouseDown?: (event: MouseEvent<HTMLTableRowElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLTableRowElement>) => void;
  /** Extra data-* attributes for tests and styles. */
  data?: Record<`data-${string}`, string | boolean | undefined>;
}

export interface DataTableProps<T> {
  table: Table<T>;
  loading: boolean;
  rowProps: (row: Row<T>) => DataRowProps;
  /** Renders the whole <td> of a cell. */
  renderCell: (cell: Cell<T, unknown>) => ReactNode;
  emptyText?: string;
  className?: string;
  /** Test ids of the table, its rows, the loading overlay and the empty message. */
  testIds: { table: string; row: string; loading: string; empty: string };
}

/**
 * A page of server-side rows: framed, scrolling under a sticky header of sortable columns, with
 * a loading overlay and an empty message; rows outside the view are left out on long pages.
 * The rows are one tab stop: the arrow keys, Page Up / Page Down and Home / End move between them.
 */
export function DataTable<T>({
  table,
  loading,
  rowProps,
  renderCell,
  emptyText = "No records",
  className = "",
  testIds,
}: DataTableProps<T>) {
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
  const shown: { row: Row<T>; index: number }[] = virtual
    ? items.map((item) => ({ row: rows[item.index], index: item.index }))
    : rows.map((row, index) => ({ row, index }));
  const padTop = virtual && items.length > 0 ? items[0].start : 0;
  const padBottom =
    virtual && items.length > 0 ? virtualizer.getTotalSize() - items[items.length - 1].end : 0;
  const columnCount = table.getVisibleLeafColumns().length;

  // The row Tab enters the table at (the one last focused), and one the keys asked for that a
  // long page had not rendered yet: focused once the virtualiser has scrolled it in.
  const [active, setActive] = useState(0);
  const tabStop = Math.min(active, Math.max(rows.length - 1, 0));
  const pendingFocus = useRef<number | null>(null);
  const focusRow = (index: number) => {
    const frame = scrollRef.current;
    const row = frame?.querySelector<HTMLElement>(`tr[data-index="${index}"]`);
    if (!frame || !row) return false;
    row.focus({ preventScroll: true });
    revealInFrame(frame, row, frame.querySelector("thead")?.offsetHeight ?? 0);
    return true;
  };
  useEffect(() => {
    if (pendingFocus.current !== null && focusRow(pendingFocus.current))
      pendingFocus.current = null;
  });
  const moveFocus = (event: KeyboardEvent<HTMLTableRowElement>, index: number) => {
    // Keys typed in a field of the row stay the field's.
    if (event.target !== event.currentTarget || event.altKey || event.ctrlKey || event.metaKey)
      return false;
    const to = rowAfterKey(event.key, index, rows.length);
    if (to === null) return false;
    event.preventDefault();
    setActive(to);
    if (!focusRow(to)) {
      pendingFocus.current = to;
      virtualizer.scrollToIndex(to);
    }
    return true;
  };

  return (
    <div className="data-table-frame border rounded shadow-sm bg-body position-relative">
      <div ref={scrollRef} className="data-table-scroll">
        <table
          className={`table table-sm table-hover align-middle mb-0 data-table ${className}`}
          data-testid={testIds.table}
        >
          <thead>
            {table.getHeaderGroups().map((group) => (
              <tr key={group.id}>
                {group.headers.map((header) => (
                  <SortableHeader key={header.id} header={header} />
                ))}
              </tr>
            ))}
          </thead>
          <tbody>
            {padTop > 0 && (
              <tr>
                <td colSpan={columnCount} style={{ height: padTop, padding: 0 }} />
              </tr>
            )}
            {shown.map(({ row, index }) => {
              const props = rowProps(row);
              const classes = [props.className ?? "", props.selected ? "data-row-selected" : ""];
              return (
                <tr
                  key={row.id}
                  data-index={index}
                  ref={virtual ? virtualizer.measureElement : undefined}
                  className={classes.join(" ").trim() || undefined}
                  aria-selected={props.selected}
                  tabIndex={index === tabStop ? 0 : -1}
                  onFocus={(event) => {
                    if (event.target === event.currentTarget) setActive(index);
                  }}
                  // Focus without scrolling: a wide row would otherwise jump sideways.
                  onMouseDown={(event) => {
                    event.currentTarget.focus({ preventScroll: true });
                    props.onMouseDown?.(event);
                  }}
                  onClick={props.onClick}
                  onDoubleClick={props.onDoubleClick}
                  onKeyDown={(event) => {
                    if (!moveFocus(event, index)) props.onKeyDown?.(event);
                  }}
                  data-testid={testIds.row}
                  {...props.data}
                >
                  {row.getVisibleCells().map((cell) => (
                    <Fragment key={cell.id}>{renderCell(cell)}</Fragment>
                  ))}
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
      {loading && (
        <div className="data-table-loading" data-testid={testIds.loading}>
          <Spinner animation="border" variant="primary" role="status">
            <span className="visually-hidden">Loading…</span>
          </Spinner>
        </div>
      )}
      {!loading && rows.length === 0 && (
        <p className="text-center text-body-secondary py-4 mb-0" data-testid={testIds.empty}>
          {emptyText}
        </p>
      )}
    </div>
  );
}
