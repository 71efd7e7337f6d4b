import type { EntityQuery, EntityTypeInfo, PendingAction } from "@ledgerline/contract";
import { useMemo, useState } from "react";
import { useListControls } from "../../components/data-table/use-list-controls.ts";

/**
 * What the user set up for the pending changes of one type: the change-type filter, filters,
 * sorting and paging, and the EntityQuery that follows from them (SPEC.md section 7: pending
 * lists ask with includeDeleted and requirePending).
 */
export function usePendingView(context: string, type: EntityTypeInfo) {
  const [changeType, setChangeType] = useState<PendingAction | "">("");
  const controls = useListControls(type.attributes, changeType);
  const { listParams, page, pageSize } = controls;

  /** The list without paging: shared by the page and by 'all'. */
  const baseQuery = useMemo(
    (): EntityQuery => ({
      context,
      entityType: type.name,
      includeDeleted: true,
      requirePending: true,
      ...(changeType ? { pendingActions: [changeType] } : {}),
      ...listParams,
    }),
    [context, type.name, changeType, listParams],
  );

  const query = useMemo(
    (): EntityQuery => ({ ...baseQuery, pageNum: page, pageSize }),
    [baseQuery, page, pageSize],
  );

  return { ...controls, changeType, setChangeType, baseQuery, query };
}

export type PendingView = ReturnType<typeof usePendingView>;
