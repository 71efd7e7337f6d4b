import type { EntityTypeInfo } from "@ledgerline/contract";
import { useMemo } from "react";
import Button from "react-bootstrap/Button";
import { useKeepPageInRange } from "../../components/data-table/use-list-controls.ts";
import type { ToastVariant } from "../../components/toasts.tsx";
import { comparedAttributes } from "./compare-cells.ts";
import { CompareCounts } from "./compare-counts.tsx";
import { CompareEndPicker } from "./compare-end-picker.tsx";
import { CompareTable } from "./compare-table.tsx";
import { CompareToolbar } from "./compare-toolbar.tsx";
import "./history.css";
import { useApprovedUploads, useCompare, useCompareXlsx } from "./use-compare.ts";
import { useCompareView } from "./use-compare-view.ts";
import { useFailureToast } from "./use-failure-toast.ts";
import type { CompareEnds } from "./use-history-params.ts";

interface CompareViewProps {
  context: string;
  type: EntityTypeInfo;
  ends: CompareEnds;
  onEndChange: (which: keyof CompareEnds, end: CompareEnds["from"]) => void;
  onBack: () => void;
  showToast: (title: string, body: string, variant?: ToastVariant) => void;
}

/** What changed in one type between two moments or uploads: counts, and the coloured records. */
export function CompareView(props: CompareViewProps) {
  const { context, type, ends, onEndChange, showToast } = props;
  const view = useCompareView(context, type.name, ends);
  const result = useCompare(view.request);
  const uploads = useApprovedUploads(context, type.name);
  const xlsx = useCompareXlsx();
  const attributes = useMemo(() => comparedAttributes(type.attributes), [type.attributes]);
  useFailureToast("Compare", result.error, showToast);
  useKeepPageInRange(result, view);

  const generateXlsx = () => {
    if (!view.baseRequest) return;
    xlsx.mutate(view.baseRequest, {
      onError: (error) => showToast("Generate xlsx", error.message, "danger"),
    });
  };

  return (
    <div data-testid="compare-view">
      <div className="d-flex flex-wrap align-items-baseline gap-2 mb-3">
        <h1 className="h4 mb-0" data-testid="compare-title">
          {type.uiName}
        </h1>
        <span className="text-body-secondary">what changed between two moments</span>
        <Button
          size="sm"
          variant="outline-secondary"
          className="ms-auto"
          onClick={props.onBack}
          data-testid="compare-back"
        >
          <i className="bi bi-arrow-left me-1" aria-hidden="true" />
          Back to the list
        </Button>
      </div>
      <div className="d-flex flex-wrap gap-3 mb-3">
        <CompareEndPicker
          id="compare-from"
          label="From"
          end={ends.from}
          uploads={uploads.data}
          onChange={(end) => onEndChange("from", end)}
        />
        <CompareEndPicker
          id="compare-to"
          label="To"
          end={ends.to}
          uploads={uploads.data}
          onChange={(end) => onEndChange("to", end)}
        />
      </div>
      <CompareCounts counts={result.data?.counts} />
      <CompareToolbar
        view={view}
        total={result.data?.querySize ?? 0}
        exporting={xlsx.isPending}
        onGenerateXlsx={generateXlsx}
      />
      <CompareTable
        attributes={attributes}
        rows={result.data?.data ?? []}
        loading={result.isFetching}
        emptyText={view.request ? "Nothing changed between the two" : "Choose both ends to compare"}
      />
    </div>
  );
}
