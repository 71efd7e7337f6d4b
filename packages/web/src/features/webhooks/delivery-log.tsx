import { WEBHOOK_KIND_TEXT, type WebhookSubscription } from "@ledgerline/contract";
import { useEffect, useRef } from "react";
import Alert from "react-bootstrap/Alert";
import Badge from "react-bootstrap/Badge";
import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import Spinner from "react-bootstrap/Spinner";
import Table from "react-bootstrap/Table";
import { isApiError } from "../../api/index.ts";
import type { ToastVariant } from "../../components/toasts.tsx";
import { useRefreshWebhooks, useResendDelivery, useWebhookDeliveries } from "./use-webhooks.ts";
import { deliveryStatusText, momentText } from "./webhook-texts.ts";

const STATUS_BADGE = { queued: "warning", delivered: "success", failed: "danger" } as const;

export interface DeliveryLogProps {
  id: string;
  subscription: WebhookSubscription;
  showToast: (title: string, body: string, variant?: ToastVariant) => void;
  onClose: () => void;
}

/** One webhook's deliveries, newest first, with 'Send again' on each. */
export function DeliveryLog({ id, subscription, showToast, onClose }: DeliveryLogProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  const log = useWebhookDeliveries(subscription.subscriptionId);
  const resend = useResendDelivery();
  const refresh = useRefreshWebhooks();
  const deliveries = log.data?.pages.flatMap((page) => page.deliveries) ?? [];

  // Opened from a row above (the page keys the log by subscription): keyboard and screen reader
  // users land on it.
  useEffect(() => {
    heading.current?.focus();
  }, []);

  return (
    <Card
      as="section"
      id={id}
      className="shadow-sm mt-4"
      aria-labelledby={`${id}-title`}
      data-testid="delivery-log"
    >
      <Card.Header className="bg-body-tertiary d-flex flex-wrap align-items-center gap-2">
        <h2 ref={heading} id={`${id}-title`} className="h6 mb-0 me-auto text-break" tabIndex={-1}>
          Deliveries to <span className="font-monospace">{subscription.url}</span>
        </h2>
        <Button variant="outline-secondary" size="sm" disabled={log.isFetching} onClick={refresh}>
          {log.isFetching ? (
            <Spinner as="span" size="sm" className="me-2" aria-hidden="true" />
          ) : (
            <i className="bi bi-arrow-clockwise me-2" aria-hidden="true" />
          )}
          Refresh
        </Button>
        <Button variant="outline-secondary" size="sm" onClick={onClose}>
          Close
        </Button>
      </Card.Header>
      <Card.Body>
        {resend.isError && (
          <Alert variant="danger" dismissible onClose={() => resend.reset()}>
            {isApiError(resend.error) ? resend.error.message : "The delivery was not sent again"}
          </Alert>
        )}
        {log.isPending && (
          <Spinner animation="border" role="status" aria-label="Loading deliveries" />
        )}
        {log.isError && (
          <Alert variant="danger">
            {isApiError(log.error) ? log.error.message : "The deliveries could not be loaded"}
          </Alert>
        )}
        {log.isSuccess && deliveries.length === 0 && (
          <p className="text-body-secondary mb-0" data-testid="no-deliveries">
            No deliveries yet.
          </p>
        )}
        {deliveries.length > 0 && (
          <Table
            bordered
            responsive
            size="sm"
            className="align-middle mb-0"
            data-testid="deliveries-table"
          >
            <thead className="table-light">
              <tr>
                <th scope="col">Delivery</th>
                <th scope="col">Event</th>
                <th scope="col">Webhook id</th>
                <th scope="col">Status</th>
                <th scope="col">Answer</th>
                <th scope="col" className="text-end">
                  Tries
                </th>
                <th scope="col">Reason</th>
                <th scope="col">Last try</th>
                <th scope="col">Next try</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.deliveryId} data-testid={`delivery-row-${delivery.deliveryId}`}>
                  <td id={`delivery-${delivery.deliveryId}`}>{delivery.deliveryId}</td>
                  <td className="text-nowrap">{WEBHOOK_KIND_TEXT[delivery.kind]}</td>
                  <td className="font-monospace small">{delivery.webhookId}</td>
                  <td>
                    <Badge
                      bg={STATUS_BADGE[delivery.status]}
                      text={delivery.status === "queued" ? "dark" : undefined}
                    >
                      {deliveryStatusText(delivery.status)}
                    </Badge>
                  </td>
                  <td>{delivery.answerCode ?? "—"}</td>
                  <td className="text-end">{delivery.attempts}</td>
                  <td className="small text-break">{delivery.reason}</td>
                  <td className="text-nowrap small">{momentText(delivery.lastAttemptAt, "—")}</td>
                  <td className="text-nowrap small">{momentText(delivery.nextAttemptAt, "—")}</td>
                  <td className="text-end">
                    <Button
                      variant="outline-primary"
                      size="sm"
                      className="text-nowrap"
                      disabled={resend.isPending}
                      aria-describedby={`delivery-${delivery.deliveryId}`}
                      onClick={() =>
                        resend.mutate(
                          { deliveryId: delivery.deliveryId },
                          { onSuccess: (answer) => showToast("Sent again", answer.Msg, "success") },
                        )
                      }
                    >
                      Send again
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </Table>
        )}
        {log.hasNextPage && (
          <div className="text-center mt-3">
            <Button
              variant="outline-secondary"
              size="sm"
              disabled={log.isFetchingNextPage}
              onClick={() => log.fetchNextPage()}
            >
              {log.isFetchingNextPage && (
                <Spinner as="span" size="sm" className="me-2" aria-hidden="true" />
              )}
              Load older
            </Button>
          </div>
        )}
      </Card.Body>
    </Card>
  );
}
