import { flexRender, type Header } from "@tanstack/react-table";
import "./column-meta.ts";

const SORT_ICONS = { asc: "bi-sort-up", desc: "bi-sort-down" } as const;

/** A column header; a click sorts on the server (shift-click adds a second order). */
export function SortableHeader<T>({ header }: { header: Header<T, unknown> }) {
  const { column } = header;
  const attr = column.columnDef.meta?.attr;
  const direction = column.getIsSorted();
  const label = flexRender(column.columnDef.header, header.getContext());
  const numeric = attr?.dataType === "Number";
  const title = attr?.uiDescription || undefined;
  const ariaSort =
    direction === "asc" ? "ascending" : direction === "desc" ? "descending" : undefined;

  if (!column.getCanSort()) {
    return (
      <th
        scope="col"
        className={numeric ? "text-end" : undefined}
        title={title ?? (attr?.generated ? "Generated: cannot be sorted" : undefined)}
      >
        <span className={`data-th-label ${attr?.generated ? "text-body-secondary" : ""}`}>
          {label}
        </span>
      </th>
    );
  }
  return (
    <th scope="col" aria-sort={ariaSort} className={numeric ? "text-end" : undefined} title={title}>
      <button
        type="button"
        className={`data-sort-btn ${numeric ? "justify-content-end" : ""}`}
        onClick={column.getToggleSortingHandler()}
        data-testid={`sort-${column.id}`}
      >
        <span className="data-th-label">{label}</span>
        <i
          className={`bi ${direction ? `${SORT_ICONS[direction]} text-primary` : "bi-arrow-down-up data-sort-idle"}`}
          aria-hidden="true"
        />
        {direction && column.getSortIndex() > 0 && (
          <small className="text-primary">{column.getSortIndex() + 1}</small>
        )}
      </button>
    </th>
  );
}
