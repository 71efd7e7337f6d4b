import Spinner from "react-bootstrap/Spinner";
import { useSearchParams } from "react-router";
import { useEntityTypes } from "../../components/entity-types/use-entity-types.ts";
import { changeTotal } from "../../components/pending-summary/change-total.ts";
import { usePendingSummary } from "../../components/pending-summary/use-pending-summary.ts";
import { ToastStack, useToasts } from "../../components/toasts.tsx";
import { TypeSideNav } from "../../components/type-side-nav/type-side-nav.tsx";
import { useContextOptions } from "../../state/session-store.ts";
import "./pending.css";
import { LinkRefused } from "../../app/link-refused.tsx";
import { OpeningApplication } from "../../app/opening-application.tsx";
import { useLinkedApplication } from "../../app/use-linked-application.ts";
import { SelectApplicationPrompt } from "../../components/select-application-prompt.tsx";
import { PendingOverview } from "./pending-overview.tsx";
import { PendingView } from "./pending-view.tsx";

/**
 * Pending changes (/pending): the readable types with their number of pending changes; choosing
 * one opens its changes (`?type=<name>`), and the back arrow returns to the overview. The address
 * carries the application too (`?context=<name>&type=<name>&changeSet=upload:12`), so a link (an
 * e-mail's) opens the same view for anyone who may read it (linked-application.ts).
 */
export function PendingPage() {
  const linked = useLinkedApplication("by-type");
  if (linked.kind === "opening") return <OpeningApplication />;
  if (linked.kind === "refused")
    return <LinkRefused message={linked.message} choices={linked.choices} />;
  if (linked.kind === "none") return <SelectApplicationPrompt testId="pending-select-prompt" />;
  return <Pending context={linked.context} />;
}

function Pending({ context }: { context: string }) {
  const options = useContextOptions();
  const types = useEntityTypes(context);
  const summary = usePendingSummary(context);
  const [params, setParams] = useSearchParams();
  const { toasts, showToast, dismiss } = useToasts();

  const uiName = options.find((o) => o.name === context)?.uiName ?? context;
  const list = types.data ?? [];
  const rows = summary.data ?? [];
  const type = list.find((t) => t.name === params.get("type"));
  const counts = new Map(rows.map((r) => [r.entityType, changeTotal(r.counts)]));
  const open = (name: string) => setParams({ context, type: name });

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
            onBack={() => setParams({ context })}
          />
        ) : (
          summary.isSuccess && <PendingOverview summary={rows} onOpen={open} />
        )}
      </section>
      <ToastStack toasts={toasts} onClose={dismiss} />
    </div>
  );
}
