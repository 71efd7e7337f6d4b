import { CHANGE_KINDS, type ChangeKind, EXPLORER_PAGE_SIZES } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Spinner from "react-bootstrap/Spinner";
import { PagingControls } from "../../components/data-table/paging-controls.tsx";
import type { CompareView } from "./use-compare-view.ts";

interface CompareToolbarProps {
  view: CompareView;
  total: number;
  exporting: boolean;
  onGenerateXlsx: () => void;
}

/** The kind of change shown and 'Generate xlsx' on the left; position, page size and pages right. */
export function CompareToolbar({ view, total, exporting, onGenerateXlsx }: CompareToolbarProps) {
  return (
    <div className="data-toolbar mb-2" data-testid="compare-toolbar">
      <Form.Select
        size="sm"
        className="w-auto"
        aria-label="Change"
        value={view.kind}
        onChange={(event) => view.setKind(event.target.value as ChangeKind | "")}
        data-testid="compare-kind-filter"
      >
        <option value="">All changes</option>
        {CHANGE_KINDS.map((kind) => (
          <option key={kind} value={kind}>
            {kind}
          </option>
        ))}
      </Form.Select>
      <Button
        size="sm"
        variant="outline-secondary"
        disabled={exporting || view.baseRequest === null || total === 0}
        onClick={onGenerateXlsx}
      >
        {exporting ? (
          <Spinner size="sm" className="me-1" aria-hidden="true" />
        ) : (
          <i className="bi bi-file-earmark-spreadsheet me-1" aria-hidden="true" />
        )}
        Generate xlsx
      </Button>
      <div className="ms-auto d-flex flex-wrap align-items-center gap-3">
        <PagingControls
          page={view.page}
          pageSize={view.pageSize}
          total={total}
          sizes={EXPLORER_PAGE_SIZES}
          onPage={view.setPage}
          onPageSize={view.setPageSize}
          offerAll
        />
      </div>
    </div>
  );
}
