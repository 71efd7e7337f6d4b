import type { AttributeInfo } from "@ledgerline/contract";
import type { ReactNode } from "react";
import { cellText } from "../../components/records/cell-text.ts";
import { cellChange, type PendingRow } from "./pending-rows.ts";

interface PendingCellProps {
  attr: AttributeInfo;
  row: PendingRow;
}

/**
 * One attribute of a pending change, coloured as SPEC.md section 2 says: a new value green, a
 * changed one with the old value struck through in orange and the new one on yellow, a removed
 * one struck through in red, an unchanged one plain, and a change between two empty values
 * flagged 'Warning: both empty'.
 */
export function PendingCell({ attr, row }: PendingCellProps) {
  const cell = cellChange(attr, row);
  const align = attr.dataType === "Number" ? "text-end" : "";
  // Only free text wraps: codes, numbers, dates, flags and references stay on one line.
  const wrap = attr.dataType === "String" && !attr.identity ? "" : "text-nowrap";
  const td = (className: string, content: ReactNode) => (
    <td className={`${align} pending-cell-${cell.kind}`.trim()} data-change={cell.kind}>
      <div className={`data-cell ${wrap} ${className}`.trim()}>{content}</div>
    </td>
  );
  switch (cell.kind) {
    case "unchanged":
    case "new":
      return td("", cellText(attr, cell.value));
    case "changed":
      return td(
        "",
        <>
          <del className="pending-old" data-testid="old-value">
            {cellText(attr, cell.old)}
          </del>{" "}
          <span className="pending-new" data-testid="new-value">
            {cellText(attr, cell.value)}
          </span>
        </>,
      );
    case "removed":
      return td(
        "",
        <del className="pending-removed" data-testid="old-value">
          {cellText(attr, cell.old)}
        </del>,
      );
    case "both-empty":
      return td(
        "pending-both-empty",
        <>
          <i className="bi bi-exclamation-triangle-fill me-1" aria-hidden="true" />
          Warning: both empty
        </>,
      );
  }
}
