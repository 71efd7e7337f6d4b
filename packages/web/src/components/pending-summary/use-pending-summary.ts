import type { PendingSummaryRow } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";

export const pendingSummaryKeys = {
  all: ["pending-summary"] as const,
  context: (context: string) => ["pending-summary", context] as const,
};

/**
 * Per readable type of a context, how many changes of each kind wait (POST /api/getpendingsummary).
 * Asked again whenever a screen showing it mounts: the numbers move with other people's work.
 */
export function usePendingSummary(context: string | null) {
  return useQuery({
    queryKey: pendingSummaryKeys.context(context ?? ""),
    queryFn: ({ signal }) =>
      apiPost<PendingSummaryRow[]>("/api/getpendingsummary", { context }, { signal }),
    enabled: context !== null,
    staleTime: 0,
  });
}
