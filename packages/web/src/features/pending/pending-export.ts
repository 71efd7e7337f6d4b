import type { AttributeInfo, AttrValue, ScalarValue, XlsxGenRequest } from "@ledgerline/contract";
import { CHANGE_LABELS, changeDateText } from "./change-kinds.ts";
import { cellChange, type PendingRow } from "./pending-rows.ts";

/** The label of a referenced record, when the screen has it. */
export type ReferenceLabel = (attr: AttributeInfo, keyId: ScalarValue) => string | undefined;

function scalar(attr: AttributeInfo, value: AttrValue | undefined, labelOf: ReferenceLabel) {
  if (value === undefined || value.value === null) return null;
  if (attr.dataType !== "Reference") return value.value;
  return value.label ?? labelOf(attr, value.value) ?? value.value;
}

function oldAndNew(attr: AttributeInfo, row: PendingRow) {
  const cell = cellChange(attr, row);
  switch (cell.kind) {
    case "unchanged":
      return [cell.value, cell.value];
    case "new":
      return [undefined, cell.value];
    case "changed":
      return [cell.old, cell.value];
    case "removed":
      return [cell.old, undefined];
    case "both-empty":
      return [undefined, undefined];
  }
}

/**
 * The rows shown as a sheet for 'Generate xlsx' (POST /api/xlsxgen): the change, then each
 * attribute's old and new value, so the file says as much as the coloured cells.
 */
export function pendingSheet(
  attributes: readonly AttributeInfo[],
  rows: readonly PendingRow[],
  labelOf: ReferenceLabel,
): XlsxGenRequest {
  const fields = [
    { key: "changeType", header: "Change type" },
    { key: "changeDate", header: "Change date" },
    { key: "changedBy", header: "Changed by" },
    ...attributes.flatMap((a) => [
      { key: `${a.name}.old`, header: `${a.uiName} (old)` },
      { key: `${a.name}.new`, header: `${a.uiName} (new)` },
    ]),
  ];
  const items = rows.map((row) => {
    const item: Record<string, ScalarValue> = {
      changeType: CHANGE_LABELS[row.change.action],
      changeDate: changeDateText(row.change.createDate),
      changedBy: row.change.createdBy,
    };
    for (const attr of attributes) {
      const [before, after] = oldAndNew(attr, row);
      item[`${attr.name}.old`] = scalar(attr, before, labelOf);
      item[`${attr.name}.new`] = scalar(attr, after, labelOf);
    }
    return item;
  });
  return { fields, items };
}
