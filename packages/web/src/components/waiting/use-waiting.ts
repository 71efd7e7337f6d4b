import type { WaitingCounts } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { useProfile } from "../../state/session-store.ts";

/** Decisions, saves, deletions and uploads invalidate `all`: the counts move with them. */
export const waitingKeys = {
  all: ["waiting"] as const,
  user: (username: string) => ["waiting", username] as const,
};

/** Other people's work moves the counts too: asked again this often while the page is shown. */
export const WAITING_REFRESH_MS = 60_000;

/**
 * Per application the user holds a role in, how many pending changes wait for the user's
 * decision and how many of the user's own wait for someone else's (POST /api/waiting).
 */
export function useWaiting() {
  const username = useProfile()?.username ?? null;
  return useQuery({
    queryKey: waitingKeys.user(username ?? ""),
    queryFn: ({ signal }) => apiPost<WaitingCounts>("/api/waiting", {}, { signal }),
    enabled: username !== null,
    staleTime: 0,
    refetchInterval: WAITING_REFRESH_MS,
  });
}
