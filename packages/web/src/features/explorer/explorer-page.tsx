import { useEffect } from "react";
import Spinner from "react-bootstrap/Spinner";
import { useSearchParams } from "react-router";
import { LinkRefused } from "../../app/link-refused.tsx";
import { OpeningApplication } from "../../app/opening-application.tsx";
import { useLinkedApplication } from "../../app/use-linked-application.ts";
import { useEntityTypes } from "../../components/entity-types/use-entity-types.ts";
import { ToastStack, useToasts } from "../../components/toasts.tsx";
import { TypeSideNav } from "../../components/type-side-nav/type-side-nav.tsx";
import { useContextOptions } from "../../state/session-store.ts";
import "./explorer.css";
import { SelectApplicationPrompt } from "../../components/select-application-prompt.tsx";
import { CompareView } from "../history/compare-view.tsx";
import { useHistoryParams } from "../history/use-history-params.ts";
import { ExplorerView } from "./explorer-view.tsx";

/**
 * Data explorer (/explorer): the readable types of the application and the chosen type's table,
 * live or as of a past moment (`asOf`), or what changed in it between two ends (`view=compare`).
 * The address carries the application (`context=<name>`), so a link opens the same view for
 * anyone who may read it (linked-application.ts).
 */
export function ExplorerPage() {
  const linked = useLinkedApplication("by-type");
  if (linked.kind === "opening") return <OpeningApplication />;
  if (linked.kind === "refused")
    return <LinkRefused message={linked.message} choices={linked.choices} />;
  if (linked.kind === "none") return <SelectApplicationPrompt testId="explorer-select-prompt" />;
  return <Explorer context={linked.context} />;
}

function Explorer({ context }: { context: string }) {
  const options = useContextOptions();
  const types = useEntityTypes(context);
  const [params, setParams] = useSearchParams();
  const { toasts, showToast, dismiss } = useToasts();
  const history = useHistoryParams();
  // A link whose moment is no moment is told, and the live list shown without it.
  const { unusableAsOf, dropAsOf } = history;
  useEffect(() => {
    if (unusableAsOf === null) return;
    showToast(
      "As of",
      `'${unusableAsOf}' is not a moment (ISO 8601, with its offset): showing the records as they are now`,
      "danger",
    );
    dropAsOf();
  }, [unusableAsOf, dropAsOf, showToast]);

  const uiName = options.find((o) => o.name === context)?.uiName ?? context;
  const list = types.data ?? [];
  // The type in the address, or the first readable one.
  const type = list.find((t) => t.name === params.get("type")) ?? list[0];

  return (
    <div className="sidenav-layout" data-testid="explorer-page">
      <TypeSideNav
        title={`${uiName} data types`}
        types={list}
        selected={type?.name}
        onSelect={(name) => setParams({ context, type: name })}
      />
      <section className="sidenav-main">
        {types.isLoading && (
          <div className="text-center py-5">
            <Spinner role="status" aria-label="Loading data types" />
          </div>
        )}
        {type && history.compare && (
          <CompareView
            key={`${context}/${type.name}`}
            context={context}
            type={type}
            ends={history.compare}
            onEndChange={history.setCompareEnd}
            onBack={history.closeCompare}
            showToast={showToast}
          />
        )}
        {type && !history.compare && (
          <ExplorerView
            key={`${context}/${type.name}/${params.get("record") ?? ""}`}
            context={context}
            type={type}
            asOf={history.asOf}
            record={recordOf(params.get("record"))}
            onShowAll={() => {
              const next = new URLSearchParams(params);
              next.delete("record");
              setParams(next);
            }}
            onAsOf={history.setAsOf}
            onAsOfRefused={history.dropAsOf}
            onCompare={() =>
              history.openCompare({ from: history.asOf, to: new Date().toISOString() })
            }
            showToast={showToast}
          />
        )}
        {!types.isLoading && !type && (
          <p className="text-body-secondary mt-3" data-testid="explorer-no-types">
            There are no data types you may read in this application.
          </p>
        )}
      </section>
      <ToastStack toasts={toasts} onClose={dismiss} />
    </div>
  );
}

/** The record id of the address (`record`, a search result opened), or null. */
function recordOf(text: string | null): number | null {
  const id = Number(text);
  return text !== null && Number.isInteger(id) && id > 0 ? id : null;
}
