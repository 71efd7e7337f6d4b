import type { ScalarValue } from "@ledgerline/contract";
import type { IngestValue } from "./row-converter.ts";

// The shapes rows take on their way through the ingest: converted in chunks (RowChunk), with
// their problems (ProblemRow, RuleBreakingRow), then with references resolved (ResolvedChunk).

/** A problem of one row: the column (file header or attribute name) and what is wrong. */
export interface RowProblem {
  column: string;
  message: string;
}

/** A row that cannot be ingested: where it is, its cells as given, and every problem found. */
export interface ProblemRow {
  rowNumber: number;
  /** The row's values in the order of IngestInput.attributes, as the file or source gave them. */
  cells: CellText[];
  problems: RowProblem[];
}

/** A cell of a problem row as it is written back into the problem list. */
export type CellText = string | number | boolean | null;

/** A broken error rule: it counts only where the row sets one of `attributes`, the ones the rule reads. */
export interface RuleProblem extends RowProblem {
  attributes: readonly string[];
}

/**
 * A row whose values are all storable but break an error rule. A rule judges what a change sets,
 * so the row is written with the others and refused only where it adds a record or changes an
 * attribute a broken rule reads (ingest/rule-breaking.ts): a row keeping a stored value that a rule
 * declared since then would refuse passes, as a web save of it does.
 */
export interface RuleBreakingRow {
  rowNumber: number;
  cells: CellText[];
  problems: RuleProblem[];
}

/** What was found wrong in a row as it was read: its cells as given, and its problems. */
export interface RowFindings {
  cells: CellText[];
  /** Problems no stored record can excuse: a value not of its type, a required one missing. */
  problems: readonly RowProblem[];
  ruleProblems: readonly RuleProblem[];
}

/** Problems as a refusal lists them (a rule problem without the attributes it reads). */
const plain = (problems: readonly RowProblem[]): RowProblem[] =>
  problems.map(({ column, message }) => ({ column, message }));

/** Rule-breaking rows as refused ones, every problem counted. */
export function refusedRows(rows: readonly RuleBreakingRow[]): ProblemRow[] {
  return rows.map((row) => ({ ...row, problems: plain(row.problems) }));
}

/**
 * Rows in the flat form the engine reads: cheap to hand over from the parser thread (a few arrays
 * rather than an object per row), and written out for COPY as they are.
 */
export interface RowChunk {
  /** The file's row number of each row, in file order. */
  rowNumbers: number[];
  /** The values of IngestInput.attributes, row after row; references as text (identity or label) or key id. */
  values: IngestValue[];
  /** The rows of this chunk that cannot be stored; their values in `values` are not to be written. */
  failed: ProblemRow[];
  /** The rows of this chunk that break an error rule and nothing else; written with the rest. */
  ruleBreaking: RuleBreakingRow[];
  /**
   * Given by the parser thread for a layout without reference columns (withCopyText): the passed
   * rows' COPY text, each line led by its row number, and `values` is then empty.
   */
  copyText?: Uint8Array<ArrayBuffer>;
}

/** The rows of a flat chunk (`width` values per row) whose numbers are not in `failed`. */
export function passedRows<V>(
  chunk: { rowNumbers: number[]; values: V[] },
  width: number,
  failed: ReadonlySet<number>,
): { rowNumbers: number[]; values: V[] } {
  const kept = { rowNumbers: [] as number[], values: [] as V[] };
  chunk.rowNumbers.forEach((n, row) => {
    if (failed.has(n)) return;
    kept.rowNumbers.push(n);
    for (let at = row * width; at < (row + 1) * width; at++) kept.values.push(chunk.values[at]);
  });
  return kept;
}

/** The most rows a chunk holds: what one COPY writes. */
const CHUNK_ROWS = 5_000;

const emptyChunk = (): RowChunk => ({ rowNumbers: [], values: [], failed: [], ruleBreaking: [] });

/** Gathers rows into RowChunks of CHUNK_ROWS rows. */
export class ChunkBuilder {
  private chunk = emptyChunk();

  /**
   * Adds a row: `fill` pushes its values (in attribute order) and answers what is wrong with it,
   * if anything. A row with a problem fails, its rule problems listed too; one with rule problems
   * alone is kept, to be judged (RuleBreakingRow). Answers the chunk once it is full.
   */
  add(
    rowNumber: number,
    fill: (values: IngestValue[]) => RowFindings | undefined,
  ): RowChunk | undefined {
    const { chunk } = this;
    chunk.rowNumbers.push(rowNumber);
    const found = fill(chunk.values);
    if (found?.problems.length) {
      const problems = plain([...found.problems, ...found.ruleProblems]);
      chunk.failed.push({ rowNumber, cells: found.cells, problems });
    } else if (found?.ruleProblems.length)
      chunk.ruleBreaking.push({ rowNumber, cells: found.cells, problems: [...found.ruleProblems] });
    return chunk.rowNumbers.length >= CHUNK_ROWS ? this.end() : undefined;
  }

  /** Answers the chunk being gathered, if it holds a row, and starts a new one. */
  end(): RowChunk | undefined {
    const { chunk } = this;
    this.chunk = emptyChunk();
    return chunk.rowNumbers.length > 0 ? chunk : undefined;
  }
}

/** A converted value as a problem list shows it: references by the text given. */
export function cellText(value: IngestValue): CellText {
  return value !== null && typeof value === "object" ? value.ref : value;
}

/**
 * A chunk whose references are resolved to record keys: every value is a scalar. With `copyText`
 * (RowChunk.copyText), `values` is empty and the text holds the rows that passed.
 */
export interface ResolvedChunk {
  rowNumbers: number[];
  values: ScalarValue[];
  copyText?: Uint8Array<ArrayBuffer>;
}
