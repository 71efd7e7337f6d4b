import { useEffect, useRef } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Spinner from "react-bootstrap/Spinner";
import { Link } from "react-router";
import { answerLines, type ProblemList, problemListLabel } from "./upload-model.ts";
import { useProblemList } from "./use-problem-list.ts";
import type { UploadOutcome } from "./use-upload.ts";

export type UploadResultOutcome = Exclude<UploadOutcome, { kind: "confirm" }>;

/** The server's answer: a summary line, then the row problems (one per line) as a list. */
function AnswerText({ text }: { text: string }) {
  const { head, items } = answerLines(text);
  return (
    <>
      <p className={items.length > 0 ? "mb-2" : "mb-0"} style={{ whiteSpace: "pre-wrap" }}>
        {head}
      </p>
      {items.length > 0 && (
        <ul
          className="mb-0 small overflow-auto"
          style={{ maxHeight: "18rem", whiteSpace: "pre-wrap" }}
          data-testid="upload-problems"
        >
          {items.map((line, index) => (
            // Lines may repeat and never move: their position is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: see above
            <li key={index}>{line}</li>
          ))}
        </ul>
      )}
    </>
  );
}

/** The whole list of failing rows, as the uploaded rows with a column naming each problem. */
function ProblemListDownload({ problems }: { problems: ProblemList }) {
  const download = useProblemList();
  return (
    <>
      <hr />
      <div className="d-flex flex-wrap align-items-center gap-2">
        <Button
          variant="danger"
          size="sm"
          disabled={download.isPending}
          onClick={() => download.mutate({ uploadId: problems.uploadId })}
          data-testid="upload-problem-list"
        >
          {download.isPending ? (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          ) : (
            <i className="bi bi-file-earmark-spreadsheet me-2" aria-hidden="true" />
          )}
          {problemListLabel(problems.rows)}
        </Button>
        {download.isError && (
          <span className="small" data-testid="upload-problem-list-error">
            {download.error.message}
          </span>
        )}
      </div>
    </>
  );
}

/** The result alert titled 'success!' or 'failure!' with the server's response text. */
export function UploadResult({
  outcome,
  onClose,
}: {
  outcome: UploadResultOutcome;
  onClose: () => void;
}) {
  const success = outcome.kind === "success";
  const ref = useRef<HTMLDivElement>(null);
  // On short screens the alert appears below the fold, under the form it answers.
  // A block body: newer browsers return a promise from scrollIntoView, not a cleanup function.
  useEffect(() => {
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    ref.current?.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
  }, []);
  return (
    <Alert
      ref={ref}
      variant={success ? "success" : "danger"}
      dismissible
      onClose={onClose}
      className="mt-4 shadow-sm"
      data-testid="upload-result"
      data-upload-id={success ? outcome.uploadId : undefined}
    >
      <Alert.Heading as="h2" className="h5 d-flex align-items-center">
        <i
          className={`bi ${success ? "bi-check-circle-fill" : "bi-x-octagon-fill"} me-2`}
          aria-hidden="true"
        />
        {success ? "success!" : "failure!"}
      </Alert.Heading>
      <AnswerText text={outcome.text} />
      {outcome.kind === "failure" && outcome.problems && (
        <ProblemListDownload problems={outcome.problems} />
      )}
      {success && !outcome.dryRun && outcome.pending > 0 && (
        <>
          <hr />
          <Link to="/pending" className="alert-link" data-testid="upload-review-pending">
            <i className="bi bi-hourglass-split me-2" aria-hidden="true" />
            Review pending changes
          </Link>
        </>
      )}
    </Alert>
  );
}
