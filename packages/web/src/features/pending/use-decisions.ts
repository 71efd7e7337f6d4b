import type {
  CustomActionInfo,
  DecisionRequest,
  DecisionResponse,
  EntityList,
  EntityQuery,
  PendingChange,
  PendingChangeSet,
  RunActionRequest,
} from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { pendingSummaryKeys } from "../../components/pending-summary/use-pending-summary.ts";
import { recordKeys } from "../../components/records/record-keys.ts";
import { waitingKeys } from "../../components/waiting/use-waiting.ts";
import { type ChangeSetRef, sameChangeSet } from "./change-sets.ts";
import { changeSetKeys, changeSetsQuery } from "./use-change-sets.ts";

/** A pending change as far as a decision needs it. */
export type ChangeRef = Pick<PendingChange, "entityEventID" | "action" | "createdBy">;

/** Approve, reject, or run a custom action, on the selected rows or on every matching change. */
export interface Decision {
  verb: "approve" | "reject" | "run";
  /** The custom action, when `verb` is 'run'. */
  action?: CustomActionInfo;
  scope: "selected" | "all";
  changes: ChangeRef[];
  /** 'all' of a list showing one whole upload: decided by its id, `changes` stays empty. */
  upload?: PendingChangeSet;
}

function send(context: string, entityType: string, decision: Decision) {
  if (decision.upload && decision.verb !== "run") {
    const request: DecisionRequest = { context, entityType, uploadId: decision.upload.id };
    return apiPost<DecisionResponse>(`/api/${decision.verb}`, request);
  }
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
 * lists of the type (pending and approved), the pending and waiting counts and the change sets are
 * loaded again.
 */
export function useDecide(context: string, entityType: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (decision: Decision) => send(context, entityType, decision),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: recordKeys.type(context, entityType) });
      void queryClient.invalidateQueries({ queryKey: pendingSummaryKeys.context(context) });
      void queryClient.invalidateQueries({ queryKey: changeSetKeys.type(context, entityType) });
      void queryClient.invalidateQueries({ queryKey: waitingKeys.all });
    },
  });
}

/** What 'all' decides on: the list's query, or the upload it shows whole. */
export interface AllScope {
  query: EntityQuery;
  wholeUpload: ChangeSetRef | null;
}

/**
 * What 'all' would decide on, asked afresh so the confirmation counts what is pending now: the
 * upload the list shows whole (with its counts), or every pending change matching the list's
 * query, all pages at once.
 */
export function useAllPendingChanges() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({
      query,
      wholeUpload,
    }: AllScope): Promise<Pick<Decision, "changes" | "upload">> => {
      if (wholeUpload) {
        const sets = await queryClient.fetchQuery(changeSetsQuery(query.context, query.entityType));
        const upload = sets.find((s) => sameChangeSet(s, wholeUpload));
        return { changes: [], ...(upload ? { upload } : {}) };
      }
      const { rowOrders: _unsorted, ...unpaged } = query;
      const list = await apiPost<EntityList>("/api/entity", {
        ...unpaged,
        pageSize: 0,
        pageNum: 0,
        requestedAttributes: [],
      } satisfies EntityQuery);
      const changes = list.data.flatMap((r) =>
        (r.pending ?? []).map(({ entityEventID, action, createdBy }) => ({
          entityEventID,
          action,
          createdBy,
        })),
      );
      return { changes };
    },
  });
}
