import { Navigate, Outlet } from "react-router";
import { useProfile, useSelectedContext } from "../state/session-store.ts";

/**
 * Navigation guard: every route below needs a signed-in profile. The screen is keyed on the
 * selected context, so changing the context remounts it and resets its selections.
 */
export function RequireSession() {
  const profile = useProfile();
  const context = useSelectedContext();
  if (profile === null) return <Navigate to="/login" replace />;
  return <Outlet key={context ?? ""} />;
}
