import { useEffect } from "react";
import { isApiError } from "../../api/index.ts";
import type { ToastVariant } from "../../components/toasts.tsx";

type ShowToast = (title: string, body: string, variant?: ToastVariant) => void;

/**
 * A refused request (a moment in the future, an unknown upload) is told in a toast with the
 * server's message, as the explorer tells its other failures. Internal errors (a discarded stale
 * answer) are not the server's and stay silent.
 */
export function useFailureToast(title: string, error: unknown, showToast: ShowToast): void {
  useEffect(() => {
    if (isApiError(error)) showToast(title, error.message, "danger");
  }, [title, error, showToast]);
}
