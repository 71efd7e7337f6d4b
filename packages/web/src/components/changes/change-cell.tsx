import type { AttributeInfo } from "@ledgerline/contract";
import type { ReactNode } from "react";
import { cellText } from "../records/cell-text.ts";
import type { CellChange } from "./change-model.ts";
import "./changes.css";

interface ChangeCellProps {
  attr: AttributeInfo;
  change: CellChange;
}

/**
 * One attribute of a change, coloured as SPEC.md section 2 says: a new value green, a changed
 * one with the old value struck through in orange and the new one on yellow, a removed one
 * struck through in red, an unchanged one plain, and a change between two empty values flagged
 * 'Warning: both empty'. Its table carries the class `change-table`.
 */
export function ChangeCell({ attr, change }: ChangeCellProps) {
  const align = attr.dataType === "Number" ? "text-end" : "";
  // Only free text wraps: codes, numbers, dates, flags and references stay on one line.
  const wrap = attr.dataType === "String" && !attr.identity ? "" : "text-nowrap";
  const td = (className: string, content: ReactNode) => (
    <td className={`${align} change-cell-${change.kind}`.trim()} data-change={change.kind}>
      <div className={`data-cell ${wrap} ${className}`.trim()}>{content}</div>
    </td>
  );
  switch (change.kind) {
    case "unchanged":
    case "new":
      return td("", cellText(attr, change.value));
    case "changed":
      return td(
        "",
        <>
          <del className="change-old" data-testid="old-value">
            {cellText(attr, change.old)}
          </del>{" "}
          <span className="change-new" data-testid="new-value">
            {cellText(attr, change.value)}
          </span>
        </>,
      );
    case "removed":
      return td(
        "",
        <del className="change-removed" data-testid="old-value">
          {cellText(attr, change.old)}
        </del>,
      );
    case "both-empty":
      return td(
        "change-both-empty",
        <>
          <i className="bi bi-exclamation-triangle-fill me-1" aria-hidden="true" />
          Warning: both empty
        </>,
      );
  }
}
