import type { AttributeInfo, AttrValue } from "@ledgerline/contract";
import type { ReactNode } from "react";
import { cellText } from "../../components/records/cell-text.ts";
import { usePickList } from "../../components/records/use-pick-list.ts";
import { cellChange, type PendingRow } from "./pending-rows.ts";

interface ValueProps {
  context: string;
  attr: AttributeInfo;
  value: AttrValue | undefined;
}

function ReferenceLabel({
  context,
  attr,
  keyId,
}: {
  context: string;
  attr: AttributeInfo;
  keyId: number;
}) {
  const { data: options } = usePickList(context, attr.referencedEntityType);
  return <>{options?.find((o) => o.id === keyId)?.label ?? `#${keyId}`}</>;
}

/** A value as the explorer shows it; a proposed reference is named from the pick list. */
function ValueText({ context, attr, value }: ValueProps) {
  if (
    attr.dataType === "Reference" &&
    value?.label === undefined &&
    typeof value?.value === "number"
  )
    return <ReferenceLabel context={context} attr={attr} keyId={value.value} />;
  return <>{cellText(attr, value)}</>;
}

interface PendingCellProps {
  context: string;
  attr: AttributeInfo;
  row: PendingRow;
}

/**
 * One attribute of a pending change, coloured as SPEC.md section 2 says: a new value green, a
 * changed one with the old value struck through in orange and the new one on yellow, a removed
 * one struck through in red, an unchanged one plain, and a change between two empty values
 * flagged 'Warning: both empty'.
 */
export function PendingCell({ context, attr, row }: PendingCellProps) {
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
      return td("", <ValueText context={context} attr={attr} value={cell.value} />);
    case "changed":
      return td(
        "",
        <>
          <del className="pending-old" data-testid="old-value">
            <ValueText context={context} attr={attr} value={cell.old} />
          </del>{" "}
          <span className="pending-new" data-testid="new-value">
            <ValueText context={context} attr={attr} value={cell.value} />
          </span>
        </>,
      );
    case "removed":
      return td(
        "",
        <del className="pending-removed" data-testid="old-value">
          <ValueText context={context} attr={attr} value={cell.old} />
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
