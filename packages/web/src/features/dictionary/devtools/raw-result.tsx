import type { RawResult } from "./raw-call.ts";

/** The raw response of a test call, green or red. */
export function RawResultView({ result, testId }: { result?: RawResult; testId: string }) {
  if (!result) {
    return (
      <p className="text-body-secondary small mb-0" data-testid={testId}>
        No response yet.
      </p>
    );
  }
  return (
    <pre
      className={`dictionary-raw border rounded p-2 ${result.ok ? "bg-success-subtle" : "bg-danger-subtle"}`}
      data-testid={testId}
      data-ok={result.ok}
    >
      {result.text}
    </pre>
  );
}
