import { useEffect } from "react";
import { useSearchParams } from "react-router";
import { useSelectedContext, useSessionStore } from "../state/session-store.ts";
import { useContexts } from "./use-contexts.ts";

/**
 * Follows `?context=<name>` of a link to a screen whose address does not keep its application (the
 * webhooks screen): once the user's applications are known, selects the named one if the user has
 * it, then drops the parameter and keeps the others. Dropping it matters there: left in the
 * address it would undo every later change of application in the navigation bar. The explorer,
 * pending and dictionary screens keep it instead (use-linked-application.ts). True while such a
 * parameter waits to be applied.
 */
export function useContextFromLink(): boolean {
  const [params, setParams] = useSearchParams();
  const wanted = params.get("context");
  const contexts = useContexts();
  const selected = useSelectedContext();
  const selectContext = useSessionStore((s) => s.selectContext);
  const list = contexts.data;
  const known = list !== undefined || contexts.isError;

  useEffect(() => {
    if (wanted === null || !known) return;
    if (wanted !== selected && list?.some((c) => c.name === wanted)) selectContext(wanted);
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete("context");
        return next;
      },
      { replace: true },
    );
  }, [wanted, known, list, selected, selectContext, setParams]);

  return wanted !== null;
}
