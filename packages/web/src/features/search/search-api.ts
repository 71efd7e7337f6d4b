import type { SearchRequest, SearchResult } from "@ledgerline/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";

/** POST /api/search. */
export const fetchSearch = (request: SearchRequest, signal?: AbortSignal) =>
  apiPost<SearchResult>("/api/search", request, { signal });

/** The search's answer, kept while the next one loads (the list does not flicker as one types). */
export function useSearch(request: SearchRequest, enabled: boolean) {
  return useQuery({
    queryKey: ["search", request],
    queryFn: ({ signal }) => fetchSearch(request, signal),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
}
