import type { WebhookSubscription } from "@ledgerline/contract";
import Badge from "react-bootstrap/Badge";
import Button from "react-bootstrap/Button";
import Table from "react-bootstrap/Table";
import { kindsText, momentText, subscriptionStatusText, typesText } from "./webhook-texts.ts";

export type WebhookRowAction = "deliveries" | "edit" | "rotate" | "pause" | "resume" | "remove";

export interface WebhooksTableProps {
  subscriptions: readonly WebhookSubscription[];
  /** The application's types, for their names. */
  types: readonly { name: string; uiName: string }[];
  /** The subscription whose delivery log is open, if any. */
  logOf: number | null;
  /** The id of the log's panel, which the 'Deliveries' button controls. */
  logPanelId: string;
  busy: boolean;
  onAction: (action: WebhookRowAction, subscription: WebhookSubscription) => void;
}

/** The application's webhooks: where, what, how they fare, and what can be done with each. */
export function WebhooksTable({
  subscriptions,
  types,
  logOf,
  logPanelId,
  busy,
  onAction,
}: WebhooksTableProps) {
  return (
    <Table bordered responsive size="sm" className="align-middle" data-testid="webhooks-table">
      <thead className="table-light">
        <tr className="text-nowrap">
          <th scope="col">Address</th>
          <th scope="col">Types</th>
          <th scope="col">Events</th>
          <th scope="col">Status</th>
          <th scope="col" className="text-end">
            Waiting
          </th>
          <th scope="col" className="text-end">
            Failed
          </th>
          <th scope="col">Last delivered</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {subscriptions.map((subscription) => {
          const { subscriptionId: id, status } = subscription;
          const urlId = `webhook-url-${id}`;
          const button = (
            action: WebhookRowAction,
            label: string,
            variant = "outline-secondary",
          ) => (
            <Button
              variant={variant}
              size="sm"
              className="text-nowrap"
              disabled={busy}
              // Each row has the same buttons: the address tells them apart for screen readers.
              aria-describedby={urlId}
              onClick={() => onAction(action, subscription)}
            >
              {label}
            </Button>
          );
          return (
            <tr key={id} data-testid={`webhook-row-${id}`}>
              <td
                id={urlId}
                className="text-break font-monospace small"
                style={{ minWidth: "14rem" }}
              >
                {subscription.url}
              </td>
              <td>{typesText(subscription.entityTypes, types)}</td>
              <td>{kindsText(subscription.kinds)}</td>
              <td data-testid="webhook-status">
                <Badge
                  bg={status === "active" ? "success" : "warning"}
                  text={status === "active" ? undefined : "dark"}
                >
                  {subscriptionStatusText(status)}
                </Badge>
                {status === "paused" && subscription.pausedReason && (
                  <div className="small text-body-secondary mt-1" style={{ minWidth: "10rem" }}>
                    {subscription.pausedReason}
                  </div>
                )}
              </td>
              <td className="text-end">{subscription.queued}</td>
              <td
                className={`text-end${subscription.failed > 0 ? " text-danger fw-semibold" : ""}`}
              >
                {subscription.failed}
              </td>
              <td
                className={`text-nowrap${subscription.lastDeliveredAt === null ? " text-body-secondary" : ""}`}
              >
                {momentText(subscription.lastDeliveredAt, "Never")}
              </td>
              <td>
                <div className="d-flex justify-content-end gap-1">
                  <Button
                    variant={logOf === id ? "secondary" : "outline-secondary"}
                    size="sm"
                    className="text-nowrap"
                    aria-describedby={urlId}
                    aria-expanded={logOf === id}
                    aria-controls={logOf === id ? logPanelId : undefined}
                    onClick={() => onAction("deliveries", subscription)}
                  >
                    Deliveries
                  </Button>
                  {button("edit", "Edit")}
                  {button("rotate", "Rotate secret")}
                  {status === "active" ? button("pause", "Pause") : button("resume", "Resume")}
                  {button("remove", "Remove", "outline-danger")}
                </div>
              </td>
            </tr>
          );
        })}
      </tbody>
    </Table>
  );
}
