import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import Spinner from "react-bootstrap/Spinner";
import { fetchConnectionFiles } from "../dictionary-api.ts";
import { useRawCall } from "./raw-call.ts";
import { RawResultView } from "./raw-result.tsx";

/** A button fetching the connection files, with the server's answer below it. */
export function ConnectionFilesProbe() {
  const call = useRawCall(() => fetchConnectionFiles());
  return (
    <Card className="shadow-sm mb-4" data-testid="connection-files-probe">
      <Card.Header className="d-flex align-items-center gap-2 bg-body py-3">
        <h2 className="h5 mb-0 me-auto">Connection files</h2>
        <Button
          size="sm"
          variant="outline-primary"
          disabled={call.isPending}
          onClick={() => call.mutate(undefined)}
          data-testid="fetch-connection-files"
        >
          {call.isPending ? (
            <Spinner size="sm" className="me-1" aria-hidden="true" />
          ) : (
            <i className="bi bi-folder2-open me-1" aria-hidden="true" />
          )}
          Get connection files
        </Button>
      </Card.Header>
      <Card.Body>
        <RawResultView result={call.data} testId="connection-files-result" />
      </Card.Body>
    </Card>
  );
}
