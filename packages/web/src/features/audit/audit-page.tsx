import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Spinner from "react-bootstrap/Spinner";
import { Navigate } from "react-router";
import { isApiError } from "../../api/index.ts";
import { PageSizeSelect } from "../../components/page-size-select.tsx";
import { PaginationBar } from "../../components/pagination-bar.tsx";
import { pageCountOf, positionText } from "../../components/paging.ts";
import { useDebouncedValue } from "../../components/use-debounced-value.ts";
import { useProfile } from "../../state/session-store.ts";
import { AuditFilters } from "./audit-filters.tsx";
import { AuditTable } from "./audit-table.tsx";
import { type AuditFilterInputs, filterOf, NO_FILTERS } from "./audit-texts.ts";
import { useAuditEvents, useExportAudit } from "./use-audit.ts";

const PAGE_SIZES = [25, 50, 100] as const;

/** /audit: the security audit trail, administrators only; everyone else goes to / (the server refuses them too). */
export function AuditPage() {
  const profile = useProfile();
  if (!profile?.isadmin) return <Navigate to="/" replace />;
  return <AuditTrail />;
}

function AuditTrail() {
  const [inputs, setInputs] = useState<AuditFilterInputs>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[1]);
  // Typing a name asks once it pauses, not at every key.
  const filter = filterOf(useDebouncedValue(inputs, 300));
  const events = useAuditEvents({ ...filter, pageNum: page, pageSize });
  const exporter = useExportAudit();
  const total = events.data?.total ?? 0;

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0 me-auto">Audit trail</h1>
        <Button
          variant="outline-primary"
          disabled={exporter.isPending}
          onClick={() => exporter.mutate(filter)}
          data-testid="audit-export"
        >
          <i className="bi bi-file-earmark-spreadsheet me-2" aria-hidden="true" />
          Export xlsx
        </Button>
      </div>
      <AuditFilters
        value={inputs}
        onChange={(next) => {
          setInputs(next);
          setPage(1);
        }}
      />
      {exporter.isError && (
        <Alert variant="danger" dismissible onClose={() => exporter.reset()}>
          {isApiError(exporter.error) ? exporter.error.message : "The export failed"}
        </Alert>
      )}
      {events.isPending && (
        <Spinner animation="border" role="status" aria-label="Loading the audit trail" />
      )}
      {events.isError && (
        <Alert variant="danger">
          {isApiError(events.error) ? events.error.message : "The audit trail could not be loaded"}
        </Alert>
      )}
      {events.data && total === 0 && (
        <p className="text-body-secondary" data-testid="audit-empty">
          No events match these filters
        </p>
      )}
      {events.data && total > 0 && <AuditTable events={events.data.events} />}
      {events.data && (
        <div className="d-flex flex-wrap align-items-center gap-3">
          <PaginationBar
            page={page}
            pageCount={pageCountOf(total, pageSize)}
            onPageChange={setPage}
          />
          <span className="small text-body-secondary" data-testid="audit-position">
            {positionText(page, pageSize, total)}
          </span>
          <PageSizeSelect
            id="audit-page-size"
            options={PAGE_SIZES}
            value={pageSize}
            onChange={(size) => {
              setPageSize(size);
              setPage(1);
            }}
          />
        </div>
      )}
    </>
  );
}
