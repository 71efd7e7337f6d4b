import { Navigate, Outlet, useLocation } from "react-router";
import { useProfile, useSelectedContext, useSessionStore } from "../state/session-store.ts";
import { useLinkedApplicationSync } from "./use-linked-application.ts";

/**
 * Navigation guard: every route below needs a signed-in profile; without one the user goes to
 * /login, which returns to the page asked for once signed in (an e-mail's link, a bookmark). The
 * screen is keyed on the selected context, so changing the context remounts it and resets its
 * selections. Above the keyed screens, it keeps a linked screen's address and the selected
 * application in agreement (useLinkedApplicationSync).
 */
export function RequireSession() {
  useLinkedApplicationSync();
  const profile = useProfile();
  const context = useSelectedContext();
  const location = useLocation();
  const signingOut = useSessionStore((s) => s.signingOut);
  if (profile === null) {
    const next = signingOut ? undefined : { next: `${location.pathname}${location.search}` };
    return <Navigate to="/login" replace state={next} />;
  }
  return <Outlet key={context ?? ""} />;
}
