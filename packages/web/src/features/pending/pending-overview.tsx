import type { PendingSummaryRow } from "@ledgerline/contract";
import Card from "react-bootstrap/Card";
import Table from "react-bootstrap/Table";
import { changeTotal } from "../../components/pending-summary/change-total.ts";
import { CHANGE_LABELS, UPLOAD_ACTIONS, WEB_ACTIONS } from "./change-kinds.ts";

interface PendingOverviewProps {
  summary: readonly PendingSummaryRow[];
  onOpen: (type: string) => void;
}

const KINDS = [...UPLOAD_ACTIONS, ...WEB_ACTIONS];

/** Before a type is chosen: every readable type with its pending changes by kind. */
export function PendingOverview({ summary, onOpen }: PendingOverviewProps) {
  return (
    <Card className="shadow-sm" data-testid="pending-overview">
      <Card.Header className="bg-body-tertiary">
        <h1 className="h5 mb-0">Pending changes</h1>
        <small className="text-body-secondary">
          Choose a data type to review, approve or reject its changes.
        </small>
      </Card.Header>
      <Table hover responsive className="mb-0 align-middle pending-overview-table">
        <thead>
          <tr className="pending-overview-groups">
            <th scope="col" rowSpan={2} className="ps-3 align-bottom">
              Data type
            </th>
            <th scope="colgroup" colSpan={UPLOAD_ACTIONS.length} className="text-center">
              From upload
            </th>
            <th scope="colgroup" colSpan={WEB_ACTIONS.length} className="text-center">
              From web
            </th>
            <th scope="col" rowSpan={2} className="text-end pe-3 align-bottom">
              Total
            </th>
          </tr>
          <tr>
            {KINDS.map((kind) => (
              <th key={kind} scope="col" className="text-end">
                {CHANGE_LABELS[kind]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {summary.map((row) => {
            const total = changeTotal(row.counts);
            return (
              <tr key={row.entityType} data-testid={`overview-${row.entityType}`}>
                <th scope="row" className="ps-3">
                  <button
                    type="button"
                    className="btn btn-link p-0 text-decoration-none fw-semibold"
                    onClick={() => onOpen(row.entityType)}
                  >
                    {row.uiName}
                  </button>
                </th>
                {KINDS.map((kind) => (
                  <td
                    key={kind}
                    className={`text-end ${row.counts[kind] === 0 ? "text-body-tertiary" : ""}`}
                  >
                    {row.counts[kind]}
                  </td>
                ))}
                <td className="text-end fw-semibold pe-3">{total}</td>
              </tr>
            );
          })}
          {summary.length === 0 && (
            <tr>
              <td colSpan={KINDS.length + 2} className="text-center text-body-secondary py-4">
                There are no data types you may read in this application.
              </td>
            </tr>
          )}
        </tbody>
      </Table>
    </Card>
  );
}
