import type { ScalarValue } from "@ledgerline/contract";
import type { Db } from "../db/connection.ts";
import type { CopyData } from "../db/copy-text.ts";
import {
  cellText,
  type IngestInput,
  IngestRejected,
  MAX_PROBLEM_ROWS,
  type ProblemRow,
  passedRows,
  problemRowsRejected,
  type RowChunk,
  type RuleBreakingRow,
  refusedRows,
} from "./ingest-input.ts";
import { resolveReferences } from "./reference-resolver.ts";

/**
 * A chunk whose references are resolved to record keys: every value is a scalar. With `copyText`
 * (RowChunk.copyText), `values` is empty and the text holds the rows that passed.
 */
export interface ResolvedChunk {
  rowNumbers: number[];
  values: ScalarValue[];
  copyText?: Uint8Array<ArrayBuffer>;
}

/** Where the chunks of rows go: the stage of a diff, or the records of a first load. */
export interface ChunkSink {
  /** A chunk's COPY data, made while the previous chunk is still being written. */
  copyData(chunk: ResolvedChunk): CopyData;
  /**
   * Writes a chunk, on the connection `copyInChunks` was given; chunks come one at a time, in
   * file order. `ruleBreaking`: the rows of it that break an error rule (written with the rest);
   * answers those of them their rules refuse (rule-breaking.ts), which fail the ingest.
   * `refusing`: a problem was found already, so the ingest will be refused; the sink need only
   * keep what finds the problems of the rows still to come.
   */
  write(
    data: CopyData,
    ruleBreaking: readonly RuleBreakingRow[],
    refusing: boolean,
  ): Promise<readonly ProblemRow[]>;
}

/**
 * Streams the chunks to `sink`, resolving references per chunk. On any problem (a row that failed,
 * or one the sink found its rules refuse) it reads on to the end to gather every failing row (up to
 * MAX_PROBLEM_ROWS), the sink told so, and throws 422 with them, adding the problems
 * `moreProblems` finds in what was written (a unique rule's, the rules' of a staged file), so one
 * refusal lists them all. Answers the number of rows read. Nothing is left running when it returns
 * or throws.
 */
export async function copyInChunks(
  db: Db,
  input: IngestInput,
  sink: ChunkSink,
  moreProblems?: () => Promise<readonly ProblemRow[]>,
): Promise<number> {
  const problems: ProblemRow[] = [];
  let count = 0;
  // One chunk is written while the next is read and converted.
  let writing: Promise<void> = Promise.resolve();
  const flush = async (chunk: RowChunk) => {
    // A failed write fails the rest of a transaction: its error is the one to report.
    const before = problems.length;
    const resolved = await resolveChunk(db, input, chunk, problems).catch(async (error) => {
      await writing;
      throw error;
    });
    const failed = new Set([...chunk.failed, ...problems.slice(before)].map((p) => p.rowNumber));
    // A rule-breaking row whose reference failed is refused anyway: its rules are listed with it.
    const ruleBreaking: RuleBreakingRow[] = [];
    for (const row of chunk.ruleBreaking)
      if (!failed.has(row.rowNumber)) ruleBreaking.push(row);
      else if (problems.length < MAX_PROBLEM_ROWS) problems.push(...refusedRows([row]));
    const passed =
      failed.size > 0 ? withoutRows(resolved, input.attributes.length, failed) : resolved;
    if (passed.rowNumbers.length === 0) return;
    // Made while the previous chunk is still being written: once the connection is free, the
    // COPY only has to send it.
    const data = sink.copyData(passed);
    await writing;
    writing = sink.write(data, ruleBreaking, problems.length > 0).then((refused) => {
      for (const row of refused) if (problems.length < MAX_PROBLEM_ROWS) problems.push(row);
    });
    // Handled when awaited; this keeps a failure while reading on from going unhandled.
    writing.catch(() => undefined);
  };
  try {
    for await (const chunk of input.chunks) {
      count += chunk.rowNumbers.length;
      if (count > input.maxRows)
        throw new IngestRejected(
          422,
          `The file has more than ${input.maxRows.toLocaleString("en-US")} rows, the most one upload may carry (UPLOAD_MAX_ROWS)`,
        );
      for (const row of chunk.failed) if (problems.length < MAX_PROBLEM_ROWS) problems.push(row);
      // Once a row failed, references are still resolved: their problems belong in the list too.
      await flush(chunk);
    }
  } catch (error) {
    // A write still running must end before the caller rolls its transaction back.
    await writing.catch(() => undefined);
    throw error;
  }
  await writing;
  if (problems.length > 0)
    throw problemRowsRejected([...problems, ...((await moreProblems?.()) ?? [])]);
  return count;
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
