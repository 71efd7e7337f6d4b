import { type EntityList, type EntityQuery, LABEL_ORDER } from "@ledgerline/contract";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { apiPost } from "../../api/index.ts";

/** Every records query starts with ["records", context, type], so one save refreshes them all. */
export const recordKeys = {
  all: ["records"] as const,
  context: (context: string) => ["records", context] as const,
  type: (context: string, type: string) => ["records", context, type] as const,
  list: (query: EntityQuery) =>
    ["records", query.context, query.entityType, "list", query] as const,
  pick: (context: string, type: string) => ["records", context, type, "pick"] as const,
  one: (context: string, type: string, keyId: number) =>
    ["records", context, type, "one", keyId] as const,
};

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
 * One page of records (POST /api/entity). The previous page stays on screen while the next one
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

export interface PickOption {
  id: number;
  label: string;
}

/** The records of a referenced type as choices, sorted by label (reference pick list). */
export function usePickList(context: string, entityType: string | undefined) {
  return useQuery({
    queryKey: recordKeys.pick(context, entityType ?? ""),
    queryFn: async ({ signal }) => {
      const list = await apiPost<EntityList>(
        "/api/entity",
        {
          context,
          entityType: entityType ?? "",
          includeLabels: true,
          requestedAttributes: [],
          pageSize: 0,
          rowOrders: [{ attribute: LABEL_ORDER, asc: true }],
        } satisfies EntityQuery,
        { signal },
      );
      return list.data.map((r): PickOption => ({ id: r.entityKeyID, label: r.label ?? "" }));
    },
    enabled: entityType !== undefined && entityType !== "",
    staleTime: 60_000,
  });
}

/** One record by key, discontinued or not (the record editor's fresh copy). */
export function useRecord(context: string, entityType: string, keyId: number | null) {
  return useQuery({
    queryKey: recordKeys.one(context, entityType, keyId ?? 0),
    queryFn: async ({ signal }) => {
      const list = await apiPost<EntityList>(
        "/api/entity",
        {
          context,
          entityType,
          entityKeyID: keyId ?? undefined,
          includeDeleted: true,
          includeLabels: true,
          pageSize: 1,
        },
        { signal },
      );
      return list.data[0] ?? null;
    },
    enabled: keyId !== null,
    staleTime: 0,
  });
}
