import { type EntityList, type EntityQuery, LABEL_ORDER } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { recordKeys } from "./record-keys.ts";

export interface PickOption {
  id: number;
  label: string;
}

/** The records of a referenced type as choices, sorted by label (reference pick list). */
export function usePickList(context: string, entityType: string | undefined) {
  return useQuery({
    queryKey: recordKeys.pick(context, entityType ?? ""),
    queryFn: async ({ signal }) => {
      const list = await apiPost<EntityList>(
        "/api/entity",
        {
          context,
          entityType: entityType ?? "",
          includeLabels: true,
          requestedAttributes: [],
          pageSize: 0,
          rowOrders: [{ attribute: LABEL_ORDER, asc: true }],
        } satisfies EntityQuery,
        { signal },
      );
      return list.data.map((r): PickOption => ({ id: r.entityKeyID, label: r.label ?? "" }));
    },
    enabled: entityType !== undefined && entityType !== "",
    staleTime: 60_000,
  });
}
