import { useEffect } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import { isRouteErrorResponse, useRouteError } from "react-router";

function describe(error: unknown): string {
  if (isRouteErrorResponse(error)) return `${error.status} ${error.statusText}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

/** Error boundary of the routes: a friendly message instead of a blank page. */
export function RouteError() {
  const error = useRouteError();

  useEffect(() => {
    console.error(error);
  }, [error]);

  return (
    <div className="container py-5" style={{ maxWidth: 720 }}>
      <Alert variant="danger" data-testid="route-error">
        <Alert.Heading as="h1" className="h4">
          <i className="bi bi-exclamation-octagon me-2" aria-hidden="true" />
          Something went wrong
        </Alert.Heading>
        <p>This page could not be shown. Reload it, or go back to the main page.</p>
        <p className="small font-monospace mb-0 text-break">{describe(error)}</p>
      </Alert>
      <div className="d-flex gap-2">
        {/* A full page load, so a broken in-memory state cannot survive. */}
        <Button as="a" href="/">
          Back to main page
        </Button>
        <Button variant="outline-secondary" onClick={() => window.location.reload()}>
          Reload
        </Button>
      </div>
    </div>
  );
}
