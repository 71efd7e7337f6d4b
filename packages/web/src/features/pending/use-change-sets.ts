import type { PendingChangeSet } from "@ledgerline/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";

export const changeSetKeys = {
  type: (context: string, type: string) => ["pending-change-sets", context, type] as const,
};

/** The uploads and metadata imports of a type with pending changes (POST /api/pendingchangesets). */
export function changeSetsQuery(context: string, entityType: string) {
  return queryOptions({
    queryKey: changeSetKeys.type(context, entityType),
    queryFn: ({ signal }) =>
      apiPost<PendingChangeSet[]>("/api/pendingchangesets", { context, entityType }, { signal }),
    // Other people upload and decide too: asked again whenever the pending tab mounts.
    staleTime: 0,
  });
}

export function usePendingChangeSets(context: string, entityType: string) {
  return useQuery(changeSetsQuery(context, entityType));
}
