import type { HistoryEvent } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";

export const historyKeys = {
  type: (context: string, type: string) => ["history", context, type] as const,
  record: (context: string, type: string, keyId: number) =>
    ["history", context, type, keyId] as const,
};

/** A record's events, newest first (POST /api/history). */
export function useHistory(context: string, entityType: string, keyId: number, enabled: boolean) {
  return useQuery({
    queryKey: historyKeys.record(context, entityType, keyId),
    queryFn: async () =>
      (
        await apiPost<{ events: HistoryEvent[] }>("/api/history", {
          context,
          entityType,
          entityKeyID: keyId,
        })
      ).events,
    enabled,
    staleTime: 0,
  });
}
