import type { ContextList } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { apiPost } from "../api/index.ts";
import { useProfile, useSessionStore } from "../state/session-store.ts";

export const contextKeys = {
  all: ["contexts"] as const,
  list: (username: string) => ["contexts", username] as const,
};

/** Contexts where the signed-in user holds a role (POST /api/contexts). */
export function useContexts() {
  const profile = useProfile();
  const username = profile?.username ?? "";
  return useQuery({
    queryKey: contextKeys.list(username),
    queryFn: () => apiPost<ContextList>("/api/contexts", {}),
    enabled: profile !== null,
  });
}

/** Loads the contexts once signed in and applies them to the stored selection. */
export function useContextSync(): void {
  const { data, isError } = useContexts();
  const applyContextList = useSessionStore((s) => s.applyContextList);
  const clearContextOptions = useSessionStore((s) => s.clearContextOptions);

  useEffect(() => {
    if (data) applyContextList(data);
    else if (isError) clearContextOptions();
  }, [data, isError, applyContextList, clearContextOptions]);
}
