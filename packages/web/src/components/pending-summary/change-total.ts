import type { PendingSummaryRow } from "@ledgerline/contract";

/** All pending changes of one summary row, whatever their kind. */
export function changeTotal(counts: PendingSummaryRow["counts"]): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}
