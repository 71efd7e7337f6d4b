import {
  DEFAULT_PAGE_SIZE,
  type EntityQuery,
  type EntityTypeInfo,
  type RowConstraint,
} from "@ledgerline/contract";
import type { SortingState, VisibilityState } from "@tanstack/react-table";
import { useCallback, useMemo, useState } from "react";
import { type FilterTab, newTab, toConstraintGroups } from "./filters/filter-model.ts";
import { useDebouncedValue } from "./use-debounced-value.ts";

/** SPEC.md section 9: filter changes trigger the search after 1 second. */
export const FILTER_DELAY_MS = 1000;

/**
 * What the user set up for one entity type: paging, sorting, columns, filters and options, and
 * the EntityQuery that follows from them. The view is keyed by type, so a new type starts afresh.
 */
export function useExplorerView(context: string, type: EntityTypeInfo) {
  const [pageSize, setPageSize] = useState<number>(DEFAULT_PAGE_SIZE);
  const [sorting, setSorting] = useState<SortingState>([]);
  const [columnVisibility, setColumnVisibility] = useState<VisibilityState>({});
  const [filterTabs, setFilterTabs] = useState<FilterTab[]>(() => [newTab()]);
  const [showDiscontinued, setShowDiscontinued] = useState(false);
  const [trimCells, setTrimCells] = useState(true);
  const [paging, setPaging] = useState({ page: 1, key: "" });

  const groupsJson = JSON.stringify(toConstraintGroups(filterTabs, type.attributes));
  const appliedJson = useDebouncedValue(groupsJson, FILTER_DELAY_MS);
  // Any change of what is listed goes back to the first page.
  const pagingKey = [appliedJson, pageSize, JSON.stringify(sorting), showDiscontinued].join("|");
  const page = paging.key === pagingKey ? paging.page : 1;
  const setPage = useCallback(
    (next: number) => setPaging({ page: Math.max(next, 1), key: pagingKey }),
    [pagingKey],
  );

  /** The list without paging: shared by the page query and the xlsx export. */
  const baseQuery = useMemo((): EntityQuery => {
    const groups = JSON.parse(appliedJson) as RowConstraint[][];
    return {
      context,
      entityType: type.name,
      ...(showDiscontinued ? { includeDeleted: true } : {}),
      ...(sorting.length > 0
        ? { rowOrders: sorting.map((s) => ({ attribute: s.id, asc: !s.desc })) }
        : {}),
      ...(groups.length > 0 ? { constraintGroups: groups } : {}),
    };
  }, [context, type.name, showDiscontinued, sorting, appliedJson]);

  const query = useMemo(
    (): EntityQuery => ({ ...baseQuery, pageNum: page, pageSize }),
    [baseQuery, page, pageSize],
  );

  const hiddenCount = type.attributes.filter((a) => columnVisibility[a.name] === false).length;

  return {
    query,
    baseQuery,
    /** True while typed filters wait for the 1-second pause before they are applied. */
    filtersPending: groupsJson !== appliedJson,
    page,
    setPage,
    pageSize,
    setPageSize,
    sorting,
    setSorting,
    columnVisibility,
    setColumnVisibility,
    hiddenCount,
    filterTabs,
    setFilterTabs,
    showDiscontinued,
    setShowDiscontinued,
    trimCells,
    setTrimCells,
  };
}

export type ExplorerView = ReturnType<typeof useExplorerView>;
