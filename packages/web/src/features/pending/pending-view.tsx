import type {
  CustomActionInfo,
  DecisionResponse,
  EntityTypeInfo,
  PendingSummaryRow,
} from "@ledgerline/contract";
import { useMemo, useState } from "react";
import Button from "react-bootstrap/Button";
import Collapse from "react-bootstrap/Collapse";
import { shownBounds, useKeepPageInRange } from "../../components/data-table/use-list-controls.ts";
import { activeFilterCount } from "../../components/filters/filter-model.ts";
import { FilterPanel } from "../../components/filters/filter-panel.tsx";
import { useRecords } from "../../components/records/use-records.ts";
import type { ToastVariant } from "../../components/toasts.tsx";
import { useProfile } from "../../state/session-store.ts";
import { DecisionBar, type Verb } from "./decision-bar.tsx";
import { DecisionModal } from "./decision-modal.tsx";
import { PendingCounts } from "./pending-counts.tsx";
import { changeableAttributes, type PendingRow, pendingRows } from "./pending-rows.ts";
import { PendingTable } from "./pending-table.tsx";
import { PendingToolbar } from "./pending-toolbar.tsx";
import { useCustomActions } from "./use-custom-actions.ts";
import { type Decision, useAllPendingChanges, useDecide } from "./use-decisions.ts";
import { useGenerateXlsx } from "./use-generate-xlsx.ts";
import { usePendingView } from "./use-pending-view.ts";
import { useRowSelection } from "./use-row-selection.ts";

interface PendingViewProps {
  context: string;
  type: EntityTypeInfo;
  counts: PendingSummaryRow["counts"] | undefined;
  showToast: (title: string, body: string, variant?: ToastVariant) => void;
  onBack: () => void;
}

function responseTitle(decision: Decision): string {
  if (decision.verb === "run") return `${decision.action?.uiName ?? "Action"} response`;
  return decision.verb === "approve" ? "Approve response" : "Reject response";
}

/** The server's Msg, followed by the changes it could not apply and why. */
function responseText(answer: DecisionResponse, rows: readonly PendingRow[]): string {
  if (answer.conflicts.length === 0) return answer.Msg;
  const named = answer.conflicts.map((c) => {
    const row = rows.find((r) => r.change.entityEventID === c.entityEventID);
    const name = row ? Object.values(row.record.keyAttrValues).join(" / ") : `#${c.entityKeyID}`;
    return `${name}: ${c.reason}`;
  });
  return `${answer.Msg}. Not applied: ${named.join("; ")}`;
}

const refOf = ({ change }: PendingRow) => ({
  entityEventID: change.entityEventID,
  action: change.action,
  createdBy: change.createdBy,
});

/** The pending changes of one type: counts, decisions, filters and the coloured table. */
export function PendingView({ context, type, counts, showToast, onBack }: PendingViewProps) {
  const view = usePendingView(context, type);
  const records = useRecords(view.query);
  const actions = useCustomActions(context, type.name);
  const decide = useDecide(context, type.name);
  const fetchAll = useAllPendingChanges();
  const xlsx = useGenerateXlsx(context);
  const username = useProfile()?.username;
  const [filterOpen, setFilterOpen] = useState(false);
  const [decision, setDecision] = useState<Decision | null>(null);

  const rows = useMemo(() => pendingRows(records.data?.data ?? []), [records.data]);
  const total = records.data?.querySize ?? 0;
  const attributes = useMemo(() => changeableAttributes(type.attributes), [type.attributes]);
  const selection = useRowSelection(rows, view.listKey);
  useKeepPageInRange(records, view);

  const decideOn = (verb: Verb, scope: "selected" | "all") => {
    if (scope === "selected") {
      setDecision({ verb, scope, changes: selection.rows.map(refOf) });
      return;
    }
    const title = verb === "approve" ? "Approve response" : "Reject response";
    fetchAll.mutate(
      { query: view.baseQuery, wholeUpload: view.wholeUpload },
      {
        onSuccess: (found) => {
          if (found.upload || found.changes.length > 0) setDecision({ verb, scope, ...found });
          else showToast(title, "No pending changes match the filters", "info");
        },
        onError: (error) => showToast(title, error.message, "danger"),
      },
    );
  };
  const run = (action: CustomActionInfo) =>
    setDecision({ verb: "run", action, scope: "selected", changes: selection.rows.map(refOf) });

  const confirm = () => {
    if (!decision) return;
    decide.mutate(decision, {
      onSuccess: (answer) => {
        showToast(
          responseTitle(decision),
          responseText(answer, rows),
          answer.conflicts.length > 0 ? "warning" : "success",
        );
        selection.clear();
      },
      onError: (error) => showToast(responseTitle(decision), error.message, "danger"),
      onSettled: () => setDecision(null),
    });
  };

  const generateXlsx = () =>
    xlsx.mutate(
      { attributes, rows },
      { onError: (error) => showToast("Generate xlsx", error.message, "danger") },
    );

  return (
    <div data-testid="pending-view">
      <div className="d-flex align-items-center gap-2 mb-2">
        <Button
          size="sm"
          variant="outline-secondary"
          onClick={onBack}
          aria-label="Back to all pending changes"
          title="Back to all pending changes"
          data-testid="pending-back"
        >
          <i className="bi bi-arrow-left" aria-hidden="true" />
        </Button>
        <h1 className="h4 mb-0" data-testid="pending-title">
          {type.uiName}
        </h1>
        <span className="text-body-secondary">pending changes</span>
        {view.filtersPending && (
          <small className="text-body-secondary ms-2" data-testid="filters-pending">
            filters apply in a moment…
          </small>
        )}
      </div>
      <PendingCounts counts={counts} />
      {type.canapprove ? (
        <DecisionBar
          selectedKinds={selection.rows.map((r) => r.change.action)}
          total={total}
          wholeUpload={view.wholeUpload !== null}
          pageRows={rows.length}
          customActions={actions.data ?? []}
          busy={decide.isPending || fetchAll.isPending}
          onDecide={decideOn}
          onRun={run}
          onSelectPage={selection.selectPage}
          onClear={selection.clear}
        />
      ) : (
        <p className="small text-body-secondary mb-2" data-testid="review-only">
          <i className="bi bi-eye me-1" aria-hidden="true" />
          You may review these changes; approving or rejecting them needs the approve right.
        </p>
      )}
      <PendingToolbar
        view={view}
        total={total}
        bounds={shownBounds(records)}
        filterOpen={filterOpen}
        activeFilters={activeFilterCount(view.filterTabs, type.attributes)}
        onToggleFilter={() => setFilterOpen((o) => !o)}
        exporting={xlsx.isPending}
        onGenerateXlsx={generateXlsx}
      />
      <Collapse in={filterOpen}>
        <div id="pending-filter-panel">
          <FilterPanel
            context={context}
            attributes={attributes}
            tabs={view.filterTabs}
            onChange={view.setFilterTabs}
          />
        </div>
      </Collapse>
      <PendingTable
        attributes={attributes}
        typeAttributes={type.attributes}
        rows={rows}
        loading={records.isFetching}
        sorting={view.sorting}
        onSortingChange={view.setSorting}
        selected={selection.ids}
        onRowClick={selection.click}
        onSelectPage={selection.selectPage}
      />
      <DecisionModal
        decision={decision}
        typeName={type.uiName}
        username={username}
        busy={decide.isPending}
        onConfirm={confirm}
        onCancel={() => setDecision(null)}
      />
    </div>
  );
}
