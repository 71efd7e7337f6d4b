import { type ChangeKind, type CompareRequest, DEFAULT_PAGE_SIZE } from "@ledgerline/contract";
import { useCallback, useMemo, useState } from "react";
import type { CompareEnds } from "./use-history-params.ts";

/**
 * What the user set up in the compare view: the kind of change shown and paging, and the
 * CompareRequest that follows with the two ends (null until both are chosen). A change of what
 * is listed goes back to the first page.
 */
export function useCompareView(context: string, entityType: string, ends: CompareEnds) {
  const [kind, setKind] = useState<ChangeKind | "">("");
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const { from, to } = ends;
  const listKey = [from, to, kind, pageSize].join("|");
  const [paging, setPaging] = useState({ page: 1, key: listKey });
  const page = paging.key === listKey ? paging.page : 1;
  const setPage = useCallback(
    (next: number) => setPaging({ page: Math.max(next, 1), key: listKey }),
    [listKey],
  );

  /** Every row: shared by the page and the xlsx. */
  const baseRequest = useMemo(
    (): CompareRequest | null =>
      from === null || to === null
        ? null
        : { context, entityType, from, to, ...(kind ? { kinds: [kind] } : {}) },
    [context, entityType, from, to, kind],
  );
  const request = useMemo(
    (): CompareRequest | null => baseRequest && { ...baseRequest, pageSize, pageNum: page },
    [baseRequest, pageSize, page],
  );

  return { kind, setKind, page, setPage, pageSize, setPageSize, baseRequest, request };
}

export type CompareView = ReturnType<typeof useCompareView>;
