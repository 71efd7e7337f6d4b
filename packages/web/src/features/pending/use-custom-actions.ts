import type { CustomActionInfo } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";

export const customActionKeys = {
  type: (context: string, type: string) => ["custom-actions", context, type] as const,
};

/** The custom actions of an entity type (POST /api/actions); they change only with the model. */
export function useCustomActions(context: string, entityType: string) {
  return useQuery({
    queryKey: customActionKeys.type(context, entityType),
    queryFn: ({ signal }) =>
      apiPost<CustomActionInfo[]>("/api/actions", { context, entityType }, { signal }),
    staleTime: 5 * 60_000,
  });
}
