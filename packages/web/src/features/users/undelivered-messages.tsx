import Alert from "react-bootstrap/Alert";
import Spinner from "react-bootstrap/Spinner";
import Table from "react-bootstrap/Table";
import { isApiError } from "../../api/index.ts";
import { messageDateText } from "./notification-summary.ts";
import { useOutboxStatus } from "./use-notification-admin.ts";

/** The e-mails the server gave up on, with the last error, so an administrator can act. */
export function UndeliveredMessages() {
  const outbox = useOutboxStatus();
  const failed = outbox.data?.failed ?? [];
  return (
    <section
      className="mt-4"
      aria-labelledby="undelivered-title"
      data-testid="undelivered-messages"
    >
      <h2 id="undelivered-title" className="h5">
        <i className="bi bi-envelope-exclamation me-2" aria-hidden="true" />
        Undelivered messages
      </h2>
      {outbox.isPending && (
        <Spinner size="sm" role="status" aria-label="Loading undelivered messages" />
      )}
      {outbox.isError && (
        <Alert variant="danger">
          {isApiError(outbox.error) ? outbox.error.message : "The messages could not be loaded"}
        </Alert>
      )}
      {outbox.data && (
        <p className="small text-body-secondary mb-2" data-testid="outbox-counts">
          {outbox.data.queued} waiting to be sent, {outbox.data.sent} sent.
        </p>
      )}
      {outbox.data && failed.length === 0 && (
        <p className="text-body-secondary" data-testid="no-failed-messages">
          No failed messages
        </p>
      )}
      {failed.length > 0 && (
        <Table bordered responsive size="sm" className="align-middle" data-testid="failed-messages">
          <thead className="table-light">
            <tr>
              <th scope="col">Recipient</th>
              <th scope="col">Subject</th>
              <th scope="col" className="text-end">
                Attempts
              </th>
              <th scope="col">Last error</th>
              <th scope="col">Date</th>
            </tr>
          </thead>
          <tbody>
            {failed.map((message) => (
              <tr key={message.messageId}>
                <td>{message.recipient}</td>
                <td>{message.subject}</td>
                <td className="text-end">{message.attempts}</td>
                <td className="text-danger-emphasis text-break">{message.lastError}</td>
                <td className="text-nowrap">{messageDateText(message.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </Table>
      )}
    </section>
  );
}
