import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Badge from "react-bootstrap/Badge";
import Button from "react-bootstrap/Button";
import Spinner from "react-bootstrap/Spinner";
import { JsonBlock } from "./dev-console-json.tsx";
import type { ConsoleOutcome } from "./dev-console-run.ts";

function sizeText(text: string): string {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      size="sm"
      variant="outline-secondary"
      className="py-0"
      onClick={() =>
        void navigator.clipboard?.writeText(text).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 1500);
          },
          // Without clipboard rights (plain http) there is simply nothing copied.
          () => undefined,
        )
      }
    >
      <i className={`bi ${copied ? "bi-check2" : "bi-clipboard"} me-1`} aria-hidden="true" />
      {copied ? "Copied" : "Copy"}
    </Button>
  );
}

/** The last answer of a tab: formatted JSON, or the failure's status and message. */
export function ConsoleResult({
  outcome,
  running,
  testId,
}: {
  outcome: ConsoleOutcome | undefined;
  running: boolean;
  testId: string;
}) {
  if (!outcome) {
    return (
      <div className="dev-console-empty" data-testid={testId}>
        {running ? (
          <Spinner animation="border" size="sm" role="status" aria-label="Running" />
        ) : (
          <>
            <i className="bi bi-terminal fs-3 d-block mb-2" aria-hidden="true" />
            Press Run to send the request.
          </>
        )}
      </div>
    );
  }

  return (
    <div data-testid={testId} data-ok={outcome.ok} aria-busy={running}>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-2 small">
        <span className="fw-semibold me-1">Response</span>
        {outcome.ok ? (
          <Badge bg="success">200 OK</Badge>
        ) : (
          <Badge bg="danger" data-testid={`${testId}-status`}>
            {outcome.status === 0 ? "failed" : `HTTP ${outcome.status}`}
          </Badge>
        )}
        <span className="text-body-secondary">{outcome.elapsedMs} ms</span>
        {outcome.ok && <span className="text-body-secondary">· {sizeText(outcome.json)}</span>}
        {running && <Spinner animation="border" size="sm" aria-hidden="true" />}
        {outcome.ok && (
          <span className="ms-auto">
            <CopyButton text={outcome.json} />
          </span>
        )}
      </div>
      {outcome.ok ? (
        <JsonBlock json={outcome.json} testId={`${testId}-json`} />
      ) : (
        <Alert variant="danger" className="mb-0 d-flex gap-2" data-testid={`${testId}-error`}>
          <i className="bi bi-x-octagon-fill" aria-hidden="true" />
          <div className="text-break">
            <span className="fw-semibold">
              {outcome.status === 0 ? "Failed" : `HTTP ${outcome.status}`}
            </span>
            : {outcome.message}
          </div>
        </Alert>
      )}
    </div>
  );
}
