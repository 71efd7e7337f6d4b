import type { AttributeInfo, EntityRecord } from "@ledgerline/contract";
import type { ColumnDef } from "@tanstack/react-table";
import "../../../components/data-table/column-meta.ts";
import { cellText } from "../../../components/records/cell-text.ts";

/** One column per attribute; generated attributes cannot be sorted, identities not hidden. */
export function recordColumns(attributes: readonly AttributeInfo[]): ColumnDef<EntityRecord>[] {
  return attributes.map((attr) => ({
    id: attr.name,
    header: attr.uiName,
    accessorFn: (record) => cellText(attr, record.requested.attrValues[attr.name]),
    enableSorting: !attr.generated,
    enableHiding: !attr.identity,
    meta: { attr },
  }));
}
