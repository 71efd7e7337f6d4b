import type { EntityList } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { recordKeys } from "../../components/records/record-keys.ts";

export { recordKeys };

/** One record by key, discontinued or not (the record editor's fresh copy). */
export function useRecord(context: string, entityType: string, keyId: number | null) {
  return useQuery({
    queryKey: recordKeys.one(context, entityType, keyId ?? 0),
    queryFn: async ({ signal }) => {
      const list = await apiPost<EntityList>(
        "/api/entity",
        {
          context,
          entityType,
          entityKeyID: keyId ?? undefined,
          includeDeleted: true,
          includeLabels: true,
          pageSize: 1,
        },
        { signal },
      );
      return list.data[0] ?? null;
    },
    enabled: keyId !== null,
    staleTime: 0,
  });
}
