import {
  type AttributeInfo,
  DEFAULT_PAGE_SIZE,
  type EntityList,
  type EntityQuery,
  type PageBounds,
  type PageSeek,
  type RowConstraint,
} from "@ledgerline/contract";
import type { SortingState } from "@tanstack/react-table";
import { useCallback, useEffect, useMemo, useState } from "react";
import { type FilterTab, newTab, toConstraintGroups } from "../filters/filter-model.ts";
import { pageCountOf } from "../paging.ts";
import { useDebouncedValue } from "../use-debounced-value.ts";

/** SPEC.md section 9: filter changes trigger the search after 1 second. */
export const FILTER_DELAY_MS = 1000;

/** The parts of an EntityQuery that sorting and the filter panel decide. */
export type ListParams = Pick<EntityQuery, "rowOrders" | "rowConstraints" | "constraintGroups">;

/**
 * Paging, server-side sorting and the filter panel of one list of records. Any change of what is
 * listed (filters once applied, sorting, page size, or the caller's `listKey`) goes back to the
 * first page. Screens key their view by type, so a new type starts afresh.
 */
export function useListControls(attributes: readonly AttributeInfo[], listKey = "") {
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [filterTabs, setFilterTabs] = useState<FilterTab[]>(() => [newTab()]);

  const groupsJson = JSON.stringify(toConstraintGroups(filterTabs, attributes));
  const appliedJson = useDebouncedValue(groupsJson, FILTER_DELAY_MS);
  const pagingKey = [appliedJson, pageSize, JSON.stringify(sorting), listKey].join("|");
  const [paging, setPaging] = useState<{ page: number; key: string; seek?: PageSeek }>({
    page: 1,
    key: pagingKey,
  });
  // A new list (filter, sort, page size) starts at page 1, and going back to an earlier list does
  // not bring its page back: the page is forgotten as the list changes (React's adjust-on-render).
  if (paging.key !== pagingKey) setPaging({ page: 1, key: pagingKey });
  const current = paging.key === pagingKey;
  const page = current ? paging.page : 1;
  const setPage = useCallback(
    (next: number, seek?: PageSeek) => setPaging({ page: Math.max(next, 1), key: pagingKey, seek }),
    [pagingKey],
  );

  const listParams = useMemo((): ListParams => {
    const groups = JSON.parse(appliedJson) as RowConstraint[][];
    return {
      ...(sorting.length > 0
        ? { rowOrders: sorting.map((s) => ({ attribute: s.id, asc: !s.desc })) }
        : {}),
      // One search tab is SPEC's rowConstraints; only several tabs need the OR of groups.
      ...(groups.length === 1 ? { rowConstraints: groups[0] } : {}),
      ...(groups.length > 1 ? { constraintGroups: groups } : {}),
    };
  }, [sorting, appliedJson]);

  return {
    listParams,
    /** Identifies what is listed, page included: selections of rows belong to one such key. */
    listKey: `${pagingKey}|${page}`,
    /** True while typed filters wait for the 1-second pause before they are applied. */
    filtersPending: groupsJson !== appliedJson,
    page,
    /** How the page is reached from its neighbour, sent beside its number. */
    seek: current ? paging.seek : undefined,
    setPage,
    pageSize,
    setPageSize,
    sorting,
    setSorting,
    filterTabs,
    setFilterTabs,
  };
}

export type ListControls = ReturnType<typeof useListControls>;

interface LoadedPage {
  isFetching: boolean;
  isSuccess: boolean;
  data?: { data: readonly unknown[]; querySize: number };
}

/** The bounds of the page on screen: none while the previous page's rows stand in for it. */
export function shownBounds(result: {
  isPlaceholderData: boolean;
  data?: EntityList;
}): PageBounds | undefined {
  return result.isPlaceholderData ? undefined : result.data?.bounds;
}

/** After rows went away (deleted, approved) the last page may have emptied: show the new last page. */
export function useKeepPageInRange(
  result: LoadedPage,
  { page, pageSize, setPage }: Pick<ListControls, "page" | "pageSize" | "setPage">,
): void {
  const { isFetching, isSuccess, data } = result;
  useEffect(() => {
    if (isFetching || !isSuccess || !data || page <= 1 || data.data.length > 0) return;
    const last = pageCountOf(data.querySize, pageSize);
    if (last < page) setPage(last);
  }, [isFetching, isSuccess, data, page, pageSize, setPage]);
}
