import type { EntityList, EntityQuery, EntityTypeInfo } from "@ledgerline/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiPost } from "../../../api/index.ts";
import { recordKeys } from "../../../components/records/record-keys.ts";

/** One entity type with its attributes and the caller's rights (POST /api/entitytype). */
export function useEntityType(context: string, entityType: string) {
  return useQuery({
    queryKey: ["entity-types", context, entityType],
    queryFn: ({ signal }) =>
      apiPost<EntityTypeInfo>("/api/entitytype", { context, entityType }, { signal }),
    staleTime: 5 * 60_000,
  });
}

/** One page of the viewer's records, every attribute included (the detail shows them all). */
export function useViewerRecords(query: EntityQuery) {
  return useQuery({
    queryKey: recordKeys.list(query),
    queryFn: ({ signal }) => apiPost<EntityList>("/api/entity", query, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}
