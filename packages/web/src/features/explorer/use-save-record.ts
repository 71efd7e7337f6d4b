import type { SaveRequest, SaveResponse } from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { waitingKeys } from "../../components/waiting/use-waiting.ts";
import { historyKeys } from "./use-history.ts";
import { recordKeys } from "./use-records.ts";

/** Creates or updates one record (POST /api/save); lists, pick lists and history reload. */
export function useSaveRecord() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: SaveRequest) => apiPost<SaveResponse>("/api/save", request),
    onSuccess: (_answer, request) => {
      void queryClient.invalidateQueries({ queryKey: recordKeys.context(request.context) });
      void queryClient.invalidateQueries({
        queryKey: historyKeys.type(request.context, request.entityType),
      });
      // A change that needs approval waits for someone now.
      void queryClient.invalidateQueries({ queryKey: waitingKeys.all });
    },
  });
}
