import type {
  CustomActionInfo,
  DecisionRequest,
  DecisionResponse,
  EntityList,
  EntityQuery,
  PendingChange,
  RunActionRequest,
} from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { pendingSummaryKeys } from "../../components/pending-summary/use-pending-summary.ts";
import { recordKeys } from "../../components/records/record-keys.ts";

/** A pending change as far as a decision needs it. */
export type ChangeRef = Pick<PendingChange, "entityEventID" | "action" | "createdBy">;

/** Approve, reject, or run a custom action, on the selected rows or on every matching change. */
export interface Decision {
  verb: "approve" | "reject" | "run";
  /** The custom action, when `verb` is 'run'. */
  action?: CustomActionInfo;
  scope: "selected" | "all";
  changes: ChangeRef[];
}

function send(context: string, entityType: string, decision: Decision) {
  const entityEventIds = decision.changes.map((c) => c.entityEventID);
  if (decision.verb === "run") {
    const request: RunActionRequest = {
      context,
      entityType,
      name: decision.action?.name ?? "",
      entityEventIds,
    };
    return apiPost<DecisionResponse>("/api/runaction", request);
  }
  const request: DecisionRequest = { context, entityType, entityEventIds };
  return apiPost<DecisionResponse>(`/api/${decision.verb}`, request);
}

/**
 * Sends a decision (POST /api/approve, /api/reject or /api/runaction). Whatever the answer, the
 * lists of the type (pending and approved) and the pending counts are loaded again.
 */
export function useDecide(context: string, entityType: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: Decision) => send(context, entityType, decision),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: recordKeys.type(context, entityType) });
      void queryClient.invalidateQueries({ queryKey: pendingSummaryKeys.context(context) });
    },
  });
}

/** Every pending change matching a pending list's query, all pages at once, for 'all'. */
export function useAllPendingChanges() {
  return useMutation({
    mutationFn: async (query: EntityQuery): Promise<ChangeRef[]> => {
      const { rowOrders: _unsorted, ...unpaged } = query;
      const list = await apiPost<EntityList>("/api/entity", {
        ...unpaged,
        pageSize: 0,
        pageNum: 0,
        requestedAttributes: [],
      } satisfies EntityQuery);
      return list.data.flatMap((r) =>
        (r.pending ?? []).map(({ entityEventID, action, createdBy }) => ({
          entityEventID,
          action,
          createdBy,
        })),
      );
    },
  });
}
