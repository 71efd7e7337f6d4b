import { DATA_DICTIONARY_CONTEXT } from "@ledgerline/contract";
import { useCallback } from "react";
import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import { Navigate, useNavigate } from "react-router";
import { LinkRefused } from "../../app/link-refused.tsx";
import { OpeningApplication } from "../../app/opening-application.tsx";
import { useLinkedApplication } from "../../app/use-linked-application.ts";
import { useMayPublish } from "../../components/entity-types/use-entity-types.ts";
import { PublishResultAlert } from "./publish-result.tsx";
import { canPublish } from "./publish-state.ts";
import { PublishProgressBar, PublishStatus } from "./publish-status.tsx";
import { usePublishSocket } from "./use-publish-socket.ts";

/**
 * /wikimanager: only in the 'Data Dictionary' context, for a caller with its publish right. The
 * address carries the context (`context=Data Dictionary`), so a link opens it whatever the user had
 * selected (DictionaryGuard). Any other context, a change away from it (the session guard remounts
 * the screen), no publish right or the end of the socket leaves to /.
 */
export function WikiManagerPage() {
  const linked = useLinkedApplication("dictionary");
  const context = linked.kind === "open" ? linked.context : null;
  const mayPublish = useMayPublish(context === DATA_DICTIONARY_CONTEXT ? context : null);
  if (linked.kind === "opening") return <OpeningApplication />;
  if (linked.kind === "refused")
    return <LinkRefused message={linked.message} choices={linked.choices} />;
  if (context !== DATA_DICTIONARY_CONTEXT || mayPublish === false)
    return <Navigate to="/" replace />;
  // The socket would be refused without the right: it opens once the right is known.
  if (mayPublish === undefined) return null;
  return <WikiPublisher />;
}

function WikiPublisher() {
  const navigate = useNavigate();
  const leave = useCallback(() => void navigate("/", { replace: true }), [navigate]);
  const { state, publish } = usePublishSocket(leave);
  const running = state.busy === true || state.requested;

  return (
    <div className="mx-auto" style={{ maxWidth: 760 }} data-testid="wiki-page">
      <div className="d-flex align-items-center gap-3 mb-3">
        <i className="bi bi-journal-arrow-up fs-2 text-primary" aria-hidden="true" />
        <div>
          <h1 className="h3 mb-0">Publish Data Dictionary to Wiki</h1>
          <p className="text-body-secondary mb-0">
            Writes the approved data dictionary to the wiki: an index page, a page per application
            and its data objects.
          </p>
        </div>
      </div>
      <Card className="shadow-sm">
        <Card.Body className="p-4">
          <div className="d-flex flex-wrap align-items-center gap-3">
            <PublishStatus busy={state.busy} running={running} />
            <Button
              className="ms-auto px-4"
              disabled={!canPublish(state)}
              onClick={publish}
              data-testid="publish-button"
            >
              <i className="bi bi-cloud-arrow-up me-2" aria-hidden="true" />
              Publish
            </Button>
          </div>
          {/* After a failed run the count of an unfinished run would only mislead. */}
          {state.progress && (running || !state.result?.error) && (
            <PublishProgressBar progress={state.progress} running={state.busy === true} />
          )}
        </Card.Body>
      </Card>
      {state.result && <PublishResultAlert result={state.result} />}
    </div>
  );
}
