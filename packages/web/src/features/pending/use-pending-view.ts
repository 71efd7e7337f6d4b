import type { EntityQuery, EntityTypeInfo, PendingAction } from "@ledgerline/contract";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { useListControls } from "../../components/data-table/use-list-controls.ts";
import {
  type ChangeSetRef,
  changeSetQuery,
  changeSetValue,
  parseChangeSetValue,
  sameChangeSet,
} from "./change-sets.ts";
import { usePendingChangeSets } from "./use-change-sets.ts";

/**
 * What the user set up for the pending changes of one type: the change set, the change-type
 * filter, filters, sorting and paging, and the EntityQuery that follows from them (SPEC.md
 * section 7: pending lists ask with includeDeleted and requirePending). The change set lives in the
 * address (`changeSet=upload:12`), so a link from an e-mail opens it and a reload keeps it.
 */
export function usePendingView(context: string, type: EntityTypeInfo) {
  const [changeType, setChangeType] = useState<PendingAction | "">("");
  const [params, setParams] = useSearchParams();
  const changeSetParam = params.get("changeSet");
  const changeSet = useMemo(() => parseChangeSetValue(changeSetParam), [changeSetParam]);
  const setChangeSet = useCallback(
    (set: ChangeSetRef | null) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          if (set) next.set("changeSet", changeSetValue(set));
          else next.delete("changeSet");
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const changeSets = usePendingChangeSets(context, type.name);
  const setKey = changeSet ? changeSetValue(changeSet) : "";
  const controls = useListControls(type.attributes, `${changeType}|${setKey}`);
  const { listParams, page, pageSize, seek } = controls;

  // A change set whose last pending change was decided (here or by someone else) is gone.
  const { data: sets, isFetching } = changeSets;
  useEffect(() => {
    if (changeSet && sets && !isFetching && !sets.some((s) => sameChangeSet(s, changeSet)))
      setChangeSet(null);
  }, [changeSet, sets, isFetching, setChangeSet]);

  /** The list without paging: shared by the page and by 'all'. */
  const baseQuery = useMemo(
    (): EntityQuery => ({
      context,
      entityType: type.name,
      includeDeleted: true,
      requirePending: true,
      ...(changeType ? { pendingActions: [changeType] } : {}),
      ...changeSetQuery(changeSet),
      ...listParams,
    }),
    [context, type.name, changeType, changeSet, listParams],
  );

  const query = useMemo(
    (): EntityQuery => ({ ...baseQuery, pageNum: page, pageSize, ...(seek ? { seek } : {}) }),
    [baseQuery, page, pageSize, seek],
  );

  /** The upload the list shows whole (no other filter narrows it): 'all' decides on it by id. */
  const wholeUpload =
    changeSet?.kind === "upload" &&
    !changeType &&
    !listParams.rowConstraints &&
    !listParams.constraintGroups
      ? changeSet
      : null;

  return {
    ...controls,
    changeType,
    setChangeType,
    changeSet,
    setChangeSet,
    changeSets,
    wholeUpload,
    baseQuery,
    query,
  };
}

export type PendingView = ReturnType<typeof usePendingView>;
