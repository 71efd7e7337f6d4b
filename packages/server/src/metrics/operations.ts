import { Counter, Histogram, Registry } from "prom-client";

/**
 * The process's own metrics: the work it did (uploads, decisions, imports, publishes), counted
 * wherever it happens, metrics on or off (a counter's increment costs nothing worth measuring),
 * and, once metrics are on, Node's own (startProcessMetrics). Each instance reports its own.
 */
export const processRegistry = new Registry();

export type Operation = "upload" | "approval" | "rejection" | "import" | "publish" | "backup";
/** finished: done; refused: the request was wrong or not allowed (4xx); failed: a fault. */
export type OperationOutcome = "finished" | "refused" | "failed";

const started = new Counter({
  name: "ledgerline_operations_started_total",
  help: "Uploads, approvals, rejections, metadata imports, publishes and backups started",
  labelNames: ["operation"] as const,
  registers: [processRegistry],
});
const ended = new Counter({
  name: "ledgerline_operations_total",
  help: "Uploads, approvals, rejections, metadata imports, publishes and backups ended, by outcome",
  labelNames: ["operation", "outcome"] as const,
  registers: [processRegistry],
});
const duration = new Histogram({
  name: "ledgerline_operation_duration_seconds",
  help: "How long uploads, approvals, rejections, metadata imports, publishes and backups took, by outcome",
  labelNames: ["operation", "outcome"] as const,
  buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 900],
  registers: [processRegistry],
});
const rows = new Counter({
  name: "ledgerline_operation_rows_total",
  help: "Rows read by uploads and imports, changes decided by approvals and rejections, pages written by publishes",
  labelNames: ["operation"] as const,
  registers: [processRegistry],
});

/** Counts an operation as started; answers the function that counts its end. */
export function operationStarted(
  operation: Operation,
): (outcome: OperationOutcome, rowCount?: number) => void {
  started.inc({ operation });
  const stop = duration.startTimer({ operation });
  return (outcome, rowCount = 0) => {
    ended.inc({ operation, outcome });
    stop({ outcome });
    if (rowCount > 0) rows.inc({ operation }, rowCount);
  };
}

/**
 * Runs `work` as one operation: finished when it answers (with the rows `countRows` finds in the
 * answer), refused when it throws an error with a 4xx status, failed otherwise.
 */
export async function measuredOperation<T>(
  operation: Operation,
  work: () => Promise<T>,
  countRows: (answer: T) => number = () => 0,
): Promise<T> {
  const end = operationStarted(operation);
  try {
    const answer = await work();
    end("finished", countRows(answer));
    return answer;
  } catch (error) {
    end(outcomeOfError(error));
    throw error;
  }
}

/** refused for an error that carries a 4xx status (AppError and its kind), failed otherwise. */
export function outcomeOfError(error: unknown): OperationOutcome {
  const status =
    (error as { status?: unknown; statusCode?: unknown }).status ??
    (error as { statusCode?: unknown }).statusCode;
  return typeof status === "number" && status >= 400 && status < 500 ? "refused" : "failed";
}
