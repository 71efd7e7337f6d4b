import type { EntityTypeInfo } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";

export const entityTypeKeys = {
  all: ["entity-types"] as const,
  list: (context: string) => ["entity-types", context] as const,
};

/** The query of a context's readable types, shared by useEntityTypes and the link resolution. */
export const entityTypesQuery = (context: string) => ({
  queryKey: entityTypeKeys.list(context),
  queryFn: () => apiPost<EntityTypeInfo[]>("/api/entitytypes", { context }),
  staleTime: 5 * 60_000,
});

/** The entity types of a context the user may read, by uiSequence (POST /api/entitytypes). */
export function useEntityTypes(context: string | null) {
  return useQuery({ ...entityTypesQuery(context ?? ""), enabled: context !== null });
}

/**
 * Whether the caller may publish the context (its publish right, the same `canpublish` flag on
 * each of its types); undefined while the types load. False without a context.
 */
export function useMayPublish(context: string | null): boolean | undefined {
  const { data, isPending, isError } = useEntityTypes(context);
  if (context === null || isError) return false;
  if (isPending) return undefined;
  return data.some((t) => t.canpublish);
}
