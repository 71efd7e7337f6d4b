import type { DeleteRequest, MsgBody } from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { waitingKeys } from "../../components/waiting/use-waiting.ts";
import { historyKeys } from "./use-history.ts";
import { recordKeys } from "./use-records.ts";

/** Soft-deletes records (POST /api/delete); the answer's Msg is for the user. */
export function useDeleteRecords() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: DeleteRequest) => apiPost<MsgBody>("/api/delete", request),
    onSettled: (_answer, _error, request) => {
      void queryClient.invalidateQueries({ queryKey: recordKeys.context(request.context) });
      void queryClient.invalidateQueries({
        queryKey: historyKeys.type(request.context, request.entityType),
      });
      // A change that needs approval waits for someone now.
      void queryClient.invalidateQueries({ queryKey: waitingKeys.all });
    },
  });
}
