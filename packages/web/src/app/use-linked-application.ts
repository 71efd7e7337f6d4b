import { useQueries } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useLocation, useMatches, useSearchParams } from "react-router";
import { entityTypesQuery } from "../components/entity-types/use-entity-types.ts";
import { useContextOptions, useSelectedContext, useSessionStore } from "../state/session-store.ts";
import {
  type LinkedApplication,
  type LinkKind,
  linkKindOf,
  resolveLinkedApplication,
  settledView,
  syncStep,
  typesNeeded,
  withContext,
} from "./linked-application.ts";
import { useContexts } from "./use-contexts.ts";

/** The resolution of the address for a linked screen of this kind (none for other screens). */
function useResolution(kind: LinkKind | null) {
  const [params] = useSearchParams();
  const named = kind === null ? null : params.get("context");
  const typeName = kind === "by-type" ? params.get("type") : null;
  const contexts = useContexts();
  const options = useContextOptions();
  const selected = useSelectedContext();
  // Without the list (it failed to load), the options last loaded stand in for it.
  const applications =
    kind === null ? undefined : (contexts.data ?? (contexts.isError ? options : undefined));
  const needed = typesNeeded(named, typeName, applications);
  const types = useQueries({ queries: needed.map((name) => entityTypesQuery(name)) });
  const typesOf = (context: string) => {
    const query = types[needed.indexOf(context)];
    if (query === undefined || query.isError) return null;
    return query.isPending ? undefined : query.data.map((t) => t.name);
  };
  const result = resolveLinkedApplication({ named, typeName, selected, applications, typesOf });
  return { result, named, selected };
}

/**
 * What a linked screen shows (linked-application.ts): opening while its application is worked
 * out and written into the address, then the application, a plain refusal or none.
 */
export function useLinkedApplication(kind: LinkKind): LinkedApplication {
  const { result, named, selected } = useResolution(kind);
  return settledView(kind, result, named, selected);
}

/**
 * Keeps the address of a linked screen and the selected application in agreement (syncStep).
 * It lives above the screens, which remount on every change of selection: the memory of what
 * changed last must outlive them.
 */
export function useLinkedApplicationSync(): void {
  const kind = linkKindOf(useMatches().map((m) => m.handle));
  const { result, named, selected } = useResolution(kind);
  const [params, setParams] = useSearchParams();
  const { state } = useLocation();
  const selectContext = useSessionStore((s) => s.selectContext);
  const seen = useRef<{ named: string | null; selected: string | null } | null>(null);

  useEffect(() => {
    if (kind === null) {
      seen.current = null;
      return;
    }
    if (result.kind === "opening") return;
    const step = syncStep({
      kind,
      result,
      named,
      selected,
      addressMoved: seen.current === null || seen.current.named !== named,
      selectionMoved: seen.current !== null && seen.current.selected !== selected,
    });
    seen.current = { named, selected };
    if (step.select !== null) selectContext(step.select);
    if (step.address?.kind === "clear") setParams(new URLSearchParams(), { replace: true });
    // Writing the application keeps what the navigation carried (a notice for the next screen).
    else if (step.address?.kind === "context")
      setParams(withContext(params, step.address.context), { replace: true, state });
  }, [kind, result, named, selected, params, state, setParams, selectContext]);
}
