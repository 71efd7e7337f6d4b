import type { EntityTypeInfo, SaveResponse } from "@ledgerline/contract";
import { useEffect, useState } from "react";
import Collapse from "react-bootstrap/Collapse";
import { isApiError } from "../../api/index.ts";
import { ConfirmModal } from "../../components/confirm-modal.tsx";
import { shownBounds, useKeepPageInRange } from "../../components/data-table/use-list-controls.ts";
import { activeFilterCount, withTreeFilter } from "../../components/filters/filter-model.ts";
import { FilterPanel } from "../../components/filters/filter-panel.tsx";
import { DELETE_CONFIRMATION } from "../../components/records/delete-confirmation.ts";
import { useRecords } from "../../components/records/use-records.ts";
import type { ToastVariant } from "../../components/toasts.tsx";
import {
  hasObjectDetails,
  ObjectDetailsPanel,
} from "../dictionary/object-details/object-details-panel.tsx";
import { tableColumns } from "../hierarchy/path-column.ts";
import {
  parentAttribute,
  TreeBreadcrumbs,
  type TreeFilterOperator,
} from "../hierarchy/tree-breadcrumbs.tsx";
import { TreePanel } from "../hierarchy/tree-panel.tsx";
import { AsOfBanner } from "../history/as-of-banner.tsx";
import { useFailureToast } from "../history/use-failure-toast.ts";
import { explorerEmptyText } from "./explorer-empty.ts";
import { AddRecordModal } from "./record-modals/add-record-modal.tsx";
import { RecordEditorModal } from "./record-modals/record-editor-modal.tsx";
import { RecordHistoryModal } from "./record-modals/record-history-modal.tsx";
import { RecordsTable } from "./table/records-table.tsx";
import type { ExplorerAction } from "./toolbar/actions-menu.tsx";
import { ExplorerToolbar } from "./toolbar/explorer-toolbar.tsx";
import { useDeleteRecords } from "./use-delete-records.ts";
import { useExplorerView } from "./use-explorer-view.ts";
import { useExportXlsx } from "./use-export-xlsx.ts";
import { useLastPageOnceCounted } from "./use-last-page.ts";

interface ExplorerViewProps {
  context: string;
  type: EntityTypeInfo;
  /** The past moment listed (read-only); null for the live list. */
  asOf: string | null;
  onAsOf: (moment: string | null) => void;
  /** The server refused the moment: the live list instead, in place of the refused address. */
  onAsOfRefused: () => void;
  onCompare: () => void;
  /** The record a link opened (a search result): listed alone and selected; null for the list. */
  record?: number | null;
  /** Leaves the one record for the whole list. */
  onShowAll?: () => void;
  showToast: (title: string, body: string, variant?: ToastVariant) => void;
}

type Dialog = "add" | "edit" | "delete" | "history" | null;

/**
 * The table of one entity type with its toolbar, filter panel and record modals; as of a past
 * moment, the same table read-only under a banner.
 */
export function ExplorerView(props: ExplorerViewProps) {
  const { context, type, asOf, onAsOf, onAsOfRefused, showToast } = props;
  const record = props.record ?? null;
  const view = useExplorerView(context, type, asOf, record);
  const records = useRecords(view.query);
  const remove = useDeleteRecords();
  const exportXlsx = useExportXlsx();
  const [filterOpen, setFilterOpen] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(record);
  const [dialog, setDialog] = useState<Dialog>(null);

  const list = records.data?.data ?? [];
  const total = records.data?.querySize ?? 0;
  const selected = list.find((r) => r.entityKeyID === selectedId);
  useKeepPageInRange(records, view);
  useLastPageOnceCounted(records, view);
  useFailureToast("As of", asOf ? records.error : null, showToast);
  // A moment the server refuses (in the future) is not shown under a banner claiming it.
  const refusedAsOf = asOf !== null && isApiError(records.error);
  useEffect(() => {
    if (refusedAsOf) onAsOfRefused();
  }, [refusedAsOf, onAsOfRefused]);
  // A record's history may lead to a past moment: nothing stays open for editing there.
  useEffect(() => {
    if (asOf) setDialog(null);
  }, [asOf]);

  const columns = tableColumns(type);
  const parent = parentAttribute(type);
  // 'Descendants of <record>' / 'Ancestors of <record>' join the filter tabs, shown open.
  const onTreeFilter = (operator: TreeFilterOperator, key: number) => {
    if (!parent) return;
    view.setFilterTabs((tabs) => withTreeFilter(tabs, parent, operator, key));
    setFilterOpen(true);
  };

  const onSaved = (answer: SaveResponse) => {
    setDialog(null);
    showToast(
      answer.pending ? "Waiting for approval" : "Saved",
      answer.Msg,
      answer.pending ? "warning" : "success",
    );
  };

  const onAction = (action: ExplorerAction) => {
    if (action === "xlsx") {
      const visible = columns.filter((a) => view.columnVisibility[a.name] !== false);
      exportXlsx.mutate(
        {
          ...view.baseQuery,
          pageSize: 0,
          pageNum: 0,
          requestedAttributes: visible.map((a) => a.name),
        },
        { onError: (error) => showToast("Generate xlsx", error.message, "danger") },
      );
    } else if (action === "compare") props.onCompare();
    else if (action === "add" || selected) setDialog(action);
  };

  const confirmDelete = () => {
    if (!selected) return;
    remove.mutate(
      { context, entityType: type.name, entityKeyIds: [selected.entityKeyID] },
      {
        onSuccess: (answer) => showToast("Delete response", answer.Msg, "info"),
        onError: (error) => showToast("Delete response", error.message, "danger"),
        onSettled: () => {
          setDialog(null);
          setSelectedId(null);
        },
      },
    );
  };

  const tableArea = (
    <>
      {record !== null && (
        <OneRecordNotice
          onShowAll={props.onShowAll}
          found={list.length > 0 || records.isFetching}
        />
      )}
      <RecordsTable
        attributes={columns}
        records={list}
        loading={records.isFetching}
        sorting={view.sorting}
        onSortingChange={view.setSorting}
        columnVisibility={view.columnVisibility}
        trimCells={view.trimCells}
        emptyText={explorerEmptyText(view.query)}
        selectedId={selectedId}
        onSelect={setSelectedId}
        onOpen={(record) => {
          setSelectedId(record.entityKeyID);
          // The editor, which has the history as a tab; for those who may not edit, the history.
          setDialog(type.canedit && !asOf && !record.requested.isDeleted ? "edit" : "history");
        }}
      />
      {selected && !asOf && hasObjectDetails(context, type.name) && (
        <ObjectDetailsPanel keyId={selected.entityKeyID} />
      )}
    </>
  );

  return (
    <div data-testid="explorer-view">
      <div className="d-flex align-items-baseline gap-2 mb-3">
        <h1 className="h4 mb-0" data-testid="explorer-title">
          {type.uiName}
        </h1>
        {view.filtersPending && (
          <small className="text-body-secondary">filters apply in a moment…</small>
        )}
      </div>
      {asOf && <AsOfBanner typeName={type.uiName} asOf={asOf} onBackToNow={() => onAsOf(null)} />}
      <ExplorerToolbar
        type={type}
        view={view}
        total={total}
        bounds={shownBounds(records)}
        estimated={records.data?.querySizeEstimated === true}
        selected={selected}
        asOf={asOf}
        onAsOf={onAsOf}
        filterOpen={filterOpen}
        activeFilters={activeFilterCount(view.filterTabs, type.attributes)}
        onToggleFilter={() => setFilterOpen((o) => !o)}
        exporting={exportXlsx.isPending}
        onAction={onAction}
      />
      <Collapse in={filterOpen}>
        <div id="explorer-filter-panel">
          <FilterPanel
            context={context}
            attributes={type.attributes}
            tabs={view.filterTabs}
            onChange={view.setFilterTabs}
          />
        </div>
      </Collapse>
      {type.hierarchy ? (
        <div className="row g-3">
          <div className="col-md-4 col-xl-3">
            <TreePanel
              context={context}
              type={type}
              asOf={asOf}
              selectedId={selectedId}
              onSelect={setSelectedId}
            />
          </div>
          <div className="col-md-8 col-xl-9">
            <TreeBreadcrumbs
              context={context}
              type={type}
              asOf={asOf}
              selectedId={selectedId}
              onSelect={setSelectedId}
              onFilter={onTreeFilter}
            />
            {tableArea}
          </div>
        </div>
      ) : (
        tableArea
      )}
      {dialog === "add" && (
        <AddRecordModal
          context={context}
          type={type}
          onClose={() => setDialog(null)}
          onSaved={onSaved}
        />
      )}
      {dialog === "edit" && selectedId !== null && (
        <RecordEditorModal
          context={context}
          type={type}
          keyId={selectedId}
          onClose={() => setDialog(null)}
          onSaved={onSaved}
        />
      )}
      {dialog === "history" && selected && (
        <RecordHistoryModal
          context={context}
          type={type}
          record={selected}
          onClose={() => setDialog(null)}
        />
      )}
      <ConfirmModal
        show={dialog === "delete"}
        title={`Delete ${type.uiName}`}
        confirmLabel="Delete"
        variant="danger"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onCancel={() => setDialog(null)}
        testId="delete-confirm"
      >
        <p className="mb-0">{DELETE_CONFIRMATION}</p>
      </ConfirmModal>
    </div>
  );
}

/** Above the table when a link opened one record: the way back to the whole list. */
function OneRecordNotice({ onShowAll, found }: { onShowAll?: () => void; found: boolean }) {
  useEffect(() => {
    if (found)
      document.querySelector('[data-testid="record-row"][aria-selected="true"]')?.scrollIntoView({
        block: "nearest",
      });
  });
  return (
    <div
      className="alert alert-info py-2 d-flex align-items-center gap-2"
      data-testid="explorer-one-record"
    >
      <span>
        {found
          ? "Showing the record the link opened."
          : "The record the link names is not here (or you may not read it)."}
      </span>
      {onShowAll && (
        <button
          type="button"
          className="btn btn-link btn-sm p-0"
          onClick={onShowAll}
          data-testid="explorer-show-all"
        >
          Show all records
        </button>
      )}
    </div>
  );
}
