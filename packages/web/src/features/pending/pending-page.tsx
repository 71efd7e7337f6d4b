import Spinner from "react-bootstrap/Spinner";
import { useSearchParams } from "react-router";
import { useEntityTypes } from "../../components/entity-types/use-entity-types.ts";
import { changeTotal } from "../../components/pending-summary/change-total.ts";
import { usePendingSummary } from "../../components/pending-summary/use-pending-summary.ts";
import { ToastStack, useToasts } from "../../components/toasts.tsx";
import { TypeSideNav } from "../../components/type-side-nav/type-side-nav.tsx";
import { useContextOptions, useSelectedContext } from "../../state/session-store.ts";
import "./pending.css";
import { OpeningApplication } from "../../app/opening-application.tsx";
import { useContextFromLink } from "../../app/use-context-from-link.ts";
import { SelectApplicationPrompt } from "../../components/select-application-prompt.tsx";
import { PendingOverview } from "./pending-overview.tsx";
import { PendingView } from "./pending-view.tsx";

/**
 * Pending changes (/pending): the readable types with their number of pending changes; choosing
 * one opens its changes (`?type=<name>`), and the back arrow returns to the overview. Links may
 * name the application too (`?context=<name>&type=<name>&changeSet=upload:12`).
 */
export function PendingPage() {
  const context = useSelectedContext();
  const options = useContextOptions();
  const types = useEntityTypes(context);
  const summary = usePendingSummary(context);
  const [params, setParams] = useSearchParams();
  const { toasts, showToast, dismiss } = useToasts();
  const following = useContextFromLink();

  if (following) return <OpeningApplication />;
  if (context === null) {
    return <SelectApplicationPrompt testId="pending-select-prompt" />;
  }

  const uiName = options.find((o) => o.name === context)?.uiName ?? context;
  const list = types.data ?? [];
  const rows = summary.data ?? [];
  const type = list.find((t) => t.name === params.get("type"));
  const counts = new Map(rows.map((r) => [r.entityType, changeTotal(r.counts)]));
  const open = (name: string) => setParams({ type: name });

  return (
    <div className="sidenav-layout" data-testid="pending-page">
      <TypeSideNav
        title={`${uiName} data types`}
        types={list}
        selected={type?.name}
        onSelect={open}
        counts={counts}
        countLabel="pending changes"
      />
      <section className="sidenav-main">
        {(types.isLoading || summary.isLoading) && (
          <div className="text-center py-5">
            <Spinner role="status" aria-label="Loading pending changes" />
          </div>
        )}
        {type ? (
          <PendingView
            key={`${context}/${type.name}`}
            context={context}
            type={type}
            counts={rows.find((r) => r.entityType === type.name)?.counts}
            showToast={showToast}
            onBack={() => setParams({})}
          />
        ) : (
          summary.isSuccess && <PendingOverview summary={rows} onOpen={open} />
        )}
      </section>
      <ToastStack toasts={toasts} onClose={dismiss} />
    </div>
  );
}
