import ProgressBar from "react-bootstrap/ProgressBar";
import Spinner from "react-bootstrap/Spinner";
import { type PublishProgress, progressPercent } from "./publish-state.ts";

/** Where the publish service stands: being asked, ready, or publishing (SPEC's spinner). */
export function PublishStatus({ busy, running }: { busy: boolean | undefined; running: boolean }) {
  if (running) {
    return (
      <div className="d-flex align-items-center gap-2 text-primary" data-testid="publish-busy">
        <Spinner animation="border" size="sm" role="status" aria-label="Publish in progress" />
        {/* The spinner already announces it. */}
        <span className="fw-semibold" aria-hidden="true">
          Publish in progress
        </span>
      </div>
    );
  }
  if (busy === undefined) {
    return (
      <div className="d-flex align-items-center gap-2 text-body-secondary" aria-live="polite">
        <Spinner animation="grow" size="sm" aria-hidden="true" />
        <span>Asking the server whether a publish is running…</span>
      </div>
    );
  }
  return (
    <div className="d-flex align-items-center gap-2 text-body-secondary" data-testid="publish-idle">
      <i className="bi bi-check2-circle text-success fs-5" aria-hidden="true" />
      <span>Ready to publish</span>
    </div>
  );
}

/** Pages written so far out of all pages, from the server's progress messages. */
export function PublishProgressBar({
  progress,
  running,
}: {
  progress: PublishProgress;
  running: boolean;
}) {
  const percent = progressPercent(progress);
  return (
    <div className="mt-4" data-testid="publish-progress">
      <div className="d-flex justify-content-between small text-body-secondary mb-1">
        <span>{running ? "Writing pages…" : "Pages processed"}</span>
        {/* Announced as it grows, politely: a reader hears the latest count when it pauses. */}
        <span data-testid="publish-progress-count" aria-live="polite" aria-atomic="true">
          {progress.done} / {progress.total} pages
        </span>
      </div>
      {/* As a child bar, so the label and values sit on the element with role progressbar. */}
      <ProgressBar style={{ height: "0.5rem" }}>
        <ProgressBar
          now={percent}
          animated={running}
          striped={running}
          variant={running ? undefined : "success"}
          aria-label="Publish progress"
          aria-valuetext={`${progress.done} of ${progress.total} pages`}
        />
      </ProgressBar>
    </div>
  );
}
