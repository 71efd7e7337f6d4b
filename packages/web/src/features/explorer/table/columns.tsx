import type { AttributeInfo, EntityRecord } from "@ledgerline/contract";
import type { ColumnDef, RowData } from "@tanstack/react-table";
import { cellText } from "./cell-text.ts";

declare module "@tanstack/react-table" {
  interface ColumnMeta<TData extends RowData, TValue> {
    attr: AttributeInfo;
    /** Type parameters must be used in an augmentation. */
    _types?: [TData, TValue];
  }
}

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
