import type { EntityList } from "@ledgerline/contract";
import { useEffect } from "react";
import { pageCountOf } from "../../components/paging.ts";
import type { ExplorerView } from "./use-explorer-view.ts";

/**
 * 'Last page' on an estimated count asks for the exact count first (an estimate cannot say which
 * page is the last); once the counted answer is in, this goes to the last page.
 */
export function useLastPageOnceCounted(
  records: { isFetching: boolean; data?: EntityList },
  view: Pick<ExplorerView, "lastPageWanted" | "askExactCount" | "setPage" | "pageSize">,
): void {
  const { isFetching, data } = records;
  const { lastPageWanted, askExactCount, setPage, pageSize } = view;
  useEffect(() => {
    if (!lastPageWanted || isFetching || !data || data.querySizeEstimated) return;
    askExactCount(false);
    setPage(pageCountOf(data.querySize, pageSize));
  }, [lastPageWanted, isFetching, data, askExactCount, setPage, pageSize]);
}
