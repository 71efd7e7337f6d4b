import type { ScalarValue } from "@ledgerline/contract";
import type { Db } from "../db/connection.ts";
import type { IngestInput } from "./ingest-input.ts";
import { resolveReferences } from "./reference-resolver.ts";
import { MAX_PROBLEM_ROWS } from "./refusals.ts";
import {
  cellText,
  type ProblemRow,
  passedRows,
  type ResolvedChunk,
  type RowChunk,
  type RuleBreakingRow,
  refusedRows,
} from "./rows.ts";

/** A chunk as stage 2 leaves it: the rows that may be written, and those of them that break a rule alone. */
export interface CheckedChunk {
  rows: ResolvedChunk;
  /** Written with the rest, to be judged on the change they make (rule-breaking.ts). */
  ruleBreaking: RuleBreakingRow[];
}

/**
 * Stage 2 of the ingest, convert and check: the chunk's values were converted to their types and
 * its rows checked against their rules as they were read (stage 1); here its references are
 * resolved to the keys of the records they name. Every failing row goes to `problems` (up to
 * MAX_PROBLEM_ROWS): those the reading found, those naming no record, and those breaking a rule
 * whose reference failed too. Answers the rest.
 */
export async function checkRows(
  db: Db,
  input: IngestInput,
  chunk: RowChunk,
  problems: ProblemRow[],
): Promise<CheckedChunk> {
  for (const row of chunk.failed) if (problems.length < MAX_PROBLEM_ROWS) problems.push(row);
  const before = problems.length;
  const resolved = await resolveChunk(db, input, chunk, problems);
  const failed = new Set([...chunk.failed, ...problems.slice(before)].map((p) => p.rowNumber));
  const ruleBreaking: RuleBreakingRow[] = [];
  for (const row of chunk.ruleBreaking)
    if (!failed.has(row.rowNumber)) ruleBreaking.push(row);
    else if (problems.length < MAX_PROBLEM_ROWS) problems.push(...refusedRows([row]));
  const rows = failed.size > 0 ? withoutRows(resolved, input.attributes.length, failed) : resolved;
  return { rows, ruleBreaking };
}

/** The chunk without the rows numbered in `failed`. */
function withoutRows(
  chunk: ResolvedChunk,
  width: number,
  failed: ReadonlySet<number>,
): ResolvedChunk {
  // COPY text holds the passed rows only already.
  if (chunk.copyText) {
    const rowNumbers = chunk.rowNumbers.filter((n) => !failed.has(n));
    return { rowNumbers, values: [], copyText: chunk.copyText };
  }
  return passedRows(chunk, width, failed);
}

/** Replaces the chunk's reference texts by the keys of the records they name, in place. */
async function resolveChunk(
  db: Db,
  input: IngestInput,
  chunk: RowChunk,
  problems: ProblemRow[],
): Promise<ResolvedChunk> {
  const { attributes } = input;
  const width = attributes.length;
  const { rowNumbers, values } = chunk;
  for (let column = 0; column < width; column++) {
    const attr = attributes[column];
    if (attr.dataType !== "Reference") continue;
    const texts = new Set<string>();
    for (let at = column; at < values.length; at += width) {
      const v = values[at];
      if (v !== null && typeof v === "object") texts.add(v.ref);
    }
    if (texts.size === 0) continue;
    const keys = await resolveReferences(db, input.context, attr, texts);
    for (let at = column, row = 0; at < values.length; at += width, row++) {
      const v = values[at];
      if (v === null || typeof v !== "object") continue;
      const key = keys.get(v.ref.toLowerCase());
      if (key === undefined && problems.length < MAX_PROBLEM_ROWS)
        problems.push({
          rowNumber: rowNumbers[row],
          cells: values.slice(row * width, (row + 1) * width).map(cellText),
          problems: [
            { column: input.columnName(attr.name), message: `no ${attr.uiName} '${v.ref}'` },
          ],
        });
      values[at] = key ?? null;
    }
  }
  return { rowNumbers, values: values as ScalarValue[], copyText: chunk.copyText };
}
