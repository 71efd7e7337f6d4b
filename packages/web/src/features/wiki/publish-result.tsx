import Alert from "react-bootstrap/Alert";
import type { PublishResult } from "./publish-state.ts";

/** The server's message: danger when it reports an error, success otherwise (SPEC.md section 8). */
export function PublishResultAlert({ result }: { result: PublishResult }) {
  return (
    <Alert
      variant={result.error ? "danger" : "success"}
      className="mt-4 shadow-sm d-flex gap-3"
      data-testid="publish-result"
      data-error={result.error}
    >
      <i
        className={`bi ${result.error ? "bi-x-octagon-fill" : "bi-check-circle-fill"}`}
        aria-hidden="true"
      />
      <div className="flex-grow-1 text-break">
        <p className="mb-0" data-testid="publish-message">
          {result.message}
        </p>
        {result.url && (
          <a
            href={result.url}
            target="_blank"
            rel="noopener noreferrer"
            className="alert-link d-inline-block mt-2"
            data-testid="publish-index-link"
          >
            Open the published index page
            <i className="bi bi-box-arrow-up-right ms-2" aria-hidden="true" />
          </a>
        )}
      </div>
    </Alert>
  );
}
