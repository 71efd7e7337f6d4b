import type { LogoutResponse } from "@ledgerline/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { apiPost } from "../api/index.ts";
import { useSessionStore } from "../state/session-store.ts";

/**
 * Signs out on the server, then forgets the session, the cache and goes to /login; after a company
 * sign-in the browser goes to the provider's sign-out instead, which comes back to /login. Marked
 * as signing out from the start, so that neither a screen's guard (RequireSession) nor a call
 * answered 401 meanwhile offers the next person to sign in a way back to this page.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const clearSession = useSessionStore((s) => s.clearSession);
  const beginSignOut = useSessionStore((s) => s.beginSignOut);

  return useMutation({
    onMutate: beginSignOut,
    mutationFn: () => apiPost<LogoutResponse>("/auth/logout", {}, { sessionHandling: false }),
    onSettled: (answer) => {
      clearSession();
      queryClient.clear();
      if (answer?.endSessionUrl) window.location.assign(answer.endSessionUrl);
      else void navigate("/login", { replace: true });
    },
  });
}
