import type { AttributeInfo } from "@ledgerline/contract";
import type { RowData } from "@tanstack/react-table";

declare module "@tanstack/react-table" {
  /** A column showing an attribute names it, for headers (numbers align right) and cells. */
  interface ColumnMeta<TData extends RowData, TValue> {
    attr: AttributeInfo;
    /** Type parameters must be used in an augmentation. */
    _types?: [TData, TValue];
  }
}
