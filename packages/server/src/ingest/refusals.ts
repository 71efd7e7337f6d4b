import { identityAttributes } from "../model/model.ts";
import { type IngestInput, IngestRejected } from "./ingest-input.ts";
import type { ProblemRow } from "./rows.ts";

// The texts of an ingest's refusals for rows at fault.

/** The most problems a refusal's text lists. */
export const MAX_PROBLEMS = 50;
/** The most rows a problem list holds. */
export const MAX_PROBLEM_ROWS = 100_000;

/** A problem row's problems as lines of a refusal's text. */
export function problemLines(row: ProblemRow): string[] {
  return row.problems.map((p) => `row ${row.rowNumber}, column '${p.column}': ${p.message}`);
}

/** A refusal for rows that broke their types or rules: the first problems in the text, every row kept. */
export function problemRowsRejected(rows: readonly ProblemRow[]): IngestRejected {
  // A row found at fault twice (its type, then a reference) is listed once.
  const byNumber = new Map<number, ProblemRow>();
  for (const row of rows) {
    const seen = byNumber.get(row.rowNumber);
    if (seen) seen.problems.push(...row.problems);
    else byNumber.set(row.rowNumber, { ...row, problems: [...row.problems] });
  }
  const sorted = [...byNumber.values()].sort((a, b) => a.rowNumber - b.rowNumber);
  const lines: string[] = [];
  for (const row of sorted) {
    for (const line of problemLines(row)) if (lines.length <= MAX_PROBLEMS) lines.push(line);
    if (lines.length > MAX_PROBLEMS) break;
  }
  const more = lines.length > MAX_PROBLEMS;
  return new IngestRejected(422, problemText(lines.slice(0, MAX_PROBLEMS), more), sorted);
}

/** A refusal's text: what happened, then one problem per line. */
export function problemText(lines: readonly string[], more = false): string {
  const head = `The file was refused; nothing was changed. ${more ? `The first ${lines.length} problems:` : "Problems:"}`;
  return [head, ...lines].join("\n");
}

/**
 * A refusal listing keys that repeat in the file, one problem line each, at the row where the key
 * comes back, naming the key's column(s) and every row that holds it.
 */
export function repeatedKeysRejected(
  input: Pick<IngestInput, "type" | "columnName">,
  repeated: readonly { key: string; rows: number[] }[],
) {
  const column = identityAttributes(input.type)
    .map((a) => input.columnName(a.name))
    .join(" / ");
  const lines = repeated.map(
    (d) =>
      `row ${d.rows[1]}, column '${column}': the key '${d.key}' appears more than once (rows ${d.rows.join(", ")})`,
  );
  return new IngestRejected(422, problemText(lines));
}
