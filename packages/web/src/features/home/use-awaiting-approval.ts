import { useEntityTypes } from "../../components/entity-types/use-entity-types.ts";
import { usePendingSummary } from "../../components/pending-summary/use-pending-summary.ts";
import { awaitingApproval } from "./awaiting-approval.ts";

/** How many changes in the context wait for the user's decision; undefined while loading. */
export function useAwaitingApproval(context: string | null): number | undefined {
  const summary = usePendingSummary(context);
  const types = useEntityTypes(context);
  if (!summary.data || !types.data) return undefined;
  return awaitingApproval(summary.data, types.data);
}
