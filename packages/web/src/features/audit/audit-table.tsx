import type { SecurityEvent } from "@ledgerline/contract";
import Table from "react-bootstrap/Table";
import { detailText, EVENT_LABELS, whenText } from "./audit-texts.ts";

/** The events of one page: When, Event, Who, Subject, From, Details. */
export function AuditTable({ events }: { events: readonly SecurityEvent[] }) {
  return (
    <Table bordered hover responsive size="sm" className="align-middle" data-testid="audit-table">
      <thead className="table-light">
        <tr>
          <th scope="col">When</th>
          <th scope="col">Event</th>
          <th scope="col">Who</th>
          <th scope="col">Subject</th>
          <th scope="col">From</th>
          <th scope="col">Details</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <tr key={event.eventId} data-testid="audit-row">
            <td className="text-nowrap">{whenText(event.occurredAt)}</td>
            <td className={event.kind === "sign-in-failed" ? "text-danger-emphasis" : undefined}>
              {EVENT_LABELS[event.kind]}
            </td>
            <td>{event.actor ?? <span className="text-body-secondary">unknown</span>}</td>
            <td>{event.subject}</td>
            <td className="text-nowrap">{event.origin}</td>
            <td className="small text-break">{detailText(event.detail)}</td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
