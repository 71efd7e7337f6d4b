import type { EntityList, EntityQuery } from "@ledgerline/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { apiPost } from "../../api/index.ts";
import { recordKeys } from "./record-keys.ts";

/** The answer of a request that a newer one overtook: never shown. */
class StaleResponseError extends Error {
  constructor() {
    super("A newer request was sent");
    this.name = "StaleResponseError";
  }
}

function randomRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One page of records (POST /api/entity): explorer and pending lists. The previous page stays on screen while the next one
 * loads; an answer that arrives after a newer request was sent is discarded (SPEC.md section 4).
 */
export function useRecords(query: EntityQuery | null) {
  const latest = useRef("");
  const result = useQuery({
    queryKey: query ? recordKeys.list(query) : ["records", "none"],
    queryFn: async ({ signal }) => {
      const requestId = randomRequestId();
      latest.current = requestId;
      const list = await apiPost<EntityList>("/api/entity", query ?? {}, { signal });
      if (latest.current !== requestId) throw new StaleResponseError();
      return list;
    },
    enabled: query !== null,
    placeholderData: keepPreviousData,
    retry: false,
  });
  const { error, refetch, isFetching } = result;
  // Back on a query whose own answer was discarded as stale: ask again.
  useEffect(() => {
    if (error instanceof StaleResponseError && !isFetching) void refetch();
  }, [error, isFetching, refetch]);
  return result;
}
