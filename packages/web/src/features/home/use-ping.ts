import type { PingResponse } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";

export const pingKeys = { all: ["ping"] as const };

/** Pings the server (POST /api/ping) each time the calling screen mounts. */
export function usePing() {
  return useQuery({
    queryKey: pingKeys.all,
    queryFn: () => apiPost<PingResponse>("/api/ping", {}),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
}
