import { SECURITY_EVENT_KINDS, type SecurityEventKind } from "@ledgerline/contract";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import { type AuditFilterInputs, EVENT_LABELS, NO_FILTERS } from "./audit-texts.ts";

export interface AuditFiltersProps {
  value: AuditFilterInputs;
  onChange: (value: AuditFilterInputs) => void;
}

/** The filter bar: the kind of event, a user (who did it or whom it concerns), and a range of days. */
export function AuditFilters({ value, onChange }: AuditFiltersProps) {
  const set = (change: Partial<AuditFilterInputs>) => onChange({ ...value, ...change });
  return (
    <Form
      className="d-flex flex-wrap align-items-end gap-3 mb-3"
      aria-label="Filters"
      onSubmit={(event) => event.preventDefault()}
    >
      <Form.Group controlId="audit-kind">
        <Form.Label className="small mb-1">Event</Form.Label>
        <Form.Select
          size="sm"
          value={value.kind}
          onChange={(event) => set({ kind: event.target.value as SecurityEventKind | "" })}
          data-testid="audit-kind"
        >
          <option value="">All events</option>
          {SECURITY_EVENT_KINDS.map((kind) => (
            <option key={kind} value={kind}>
              {EVENT_LABELS[kind]}
            </option>
          ))}
        </Form.Select>
      </Form.Group>
      <Form.Group controlId="audit-user">
        <Form.Label className="small mb-1">User</Form.Label>
        <Form.Control
          size="sm"
          type="search"
          placeholder="Username"
          value={value.user}
          onChange={(event) => set({ user: event.target.value })}
          data-testid="audit-user"
        />
      </Form.Group>
      <Form.Group controlId="audit-from">
        <Form.Label className="small mb-1">From</Form.Label>
        <Form.Control
          size="sm"
          type="date"
          value={value.fromDate}
          max={value.toDate || undefined}
          onChange={(event) => set({ fromDate: event.target.value })}
          data-testid="audit-from"
        />
      </Form.Group>
      <Form.Group controlId="audit-to">
        <Form.Label className="small mb-1">To</Form.Label>
        <Form.Control
          size="sm"
          type="date"
          value={value.toDate}
          min={value.fromDate || undefined}
          onChange={(event) => set({ toDate: event.target.value })}
          data-testid="audit-to"
        />
      </Form.Group>
      <Button
        size="sm"
        variant="outline-secondary"
        onClick={() => onChange(NO_FILTERS)}
        data-testid="audit-clear"
      >
        Clear filters
      </Button>
    </Form>
  );
}
