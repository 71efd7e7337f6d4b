import type { EntityTypeInfo, PendingSummaryRow } from "@ledgerline/contract";
import { changeTotal } from "../../components/pending-summary/change-total.ts";

/** The pending changes of the types the user may approve, all kinds together. */
export function awaitingApproval(
  summary: readonly PendingSummaryRow[],
  types: readonly Pick<EntityTypeInfo, "name" | "canapprove">[],
): number {
  const approvable = new Set(types.filter((t) => t.canapprove).map((t) => t.name));
  return summary
    .filter((row) => approvable.has(row.entityType))
    .reduce((sum, row) => sum + changeTotal(row.counts), 0);
}
