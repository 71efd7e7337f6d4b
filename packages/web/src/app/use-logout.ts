import type { MsgBody } from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { apiPost } from "../api/index.ts";
import { useSessionStore } from "../state/session-store.ts";

/** Signs out on the server, then forgets the session, the cache and goes to /login. */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const clearSession = useSessionStore((s) => s.clearSession);

  return useMutation({
    mutationFn: () => apiPost<MsgBody>("/auth/logout", {}, { sessionHandling: false }),
    onSettled: () => {
      clearSession();
      queryClient.clear();
      void navigate("/login", { replace: true });
    },
  });
}
