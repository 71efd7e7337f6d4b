import { useEffect, useRef } from "react";
import { useLocation, useNavigate } from "react-router";
import type { ToastVariant } from "../../components/toasts.tsx";

/** A message a form hands to the list page it returns to (toasts belong to one screen). */
export interface Notice {
  title: string;
  body: string;
  variant: ToastVariant;
}

/** Navigation state carrying a notice. */
export const withNotice = (notice: Notice) => ({ state: { notice } });

/** Shows the notice the previous screen left, once, then clears it from the history entry. */
export function useNavigationNotice(
  showToast: (title: string, body: string, variant?: ToastVariant) => void,
): void {
  const location = useLocation();
  const navigate = useNavigate();
  const shown = useRef(false);
  const notice = (location.state as { notice?: Notice } | null)?.notice;

  useEffect(() => {
    if (!notice || shown.current) return;
    shown.current = true;
    showToast(notice.title, notice.body, notice.variant);
    // The address stays as it is (its `context` too): only the notice goes.
    void navigate(`${location.pathname}${location.search}`, { replace: true, state: null });
  }, [notice, showToast, navigate, location.pathname, location.search]);
}
