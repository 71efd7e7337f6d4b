import { counted } from "../counted.ts";
import type { CopyRows, Database, Db } from "../db/connection.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { identityAttributes } from "../model/model.ts";
import { buildIndexes } from "../records/index-rebuild.ts";
import { textProblem } from "../records/values.ts";
import { ruleProblems } from "../rules/row-rules.ts";
import type { DiffCounts, MissingScope, WriteOptions } from "./diff.repository.ts";
import type { IngestValue } from "./row-converter.ts";

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

export interface IngestRow {
  rowNumber: number;
  /** Converted values of the present attributes; references as text (identity or label) or key id. */
  values: Record<string, IngestValue>;
  /** Problems found while converting this row. */
  problems: RowProblem[];
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

/** The texts of a row its attributes cannot store, as an upload's parser finds them (textProblem). */
function unstorableTexts(
  attributes: readonly Attribute[],
  values: readonly IngestValue[],
  at: number,
) {
  return attributes.flatMap((attr, i) => {
    const value = values[at + i];
    const message =
      attr.dataType === "String" && typeof value === "string"
        ? textProblem(attr, value)
        : undefined;
    return message === undefined ? [] : [{ column: attr.name, message }];
  });
}

/**
 * Gathers rows made one at a time (a metadata import's, a test's) into chunks, checking each
 * against the type's data quality rules as an upload's parser thread does.
 */
export async function* rowChunks(
  type: Pick<EntityType, "rules">,
  attributes: readonly Attribute[],
  rows: AsyncIterable<IngestRow> | Iterable<IngestRow>,
): AsyncGenerator<RowChunk> {
  const chunks = new ChunkBuilder();
  for await (const row of rows) {
    const full = chunks.add(row.rowNumber, (values) => {
      const at = values.length;
      for (const a of attributes) values.push(row.values[a.name] ?? null);
      const problems = [...row.problems, ...unstorableTexts(attributes, values, at)];
      const broken = ruleProblems(type, attributes, values, at, (a) => a.name);
      if (problems.length === 0 && broken.length === 0) return undefined;
      return { cells: values.slice(at).map(cellText), problems, ruleProblems: broken };
    });
    if (full) yield full;
  }
  const last = chunks.end();
  if (last) yield last;
}

export interface IngestInput {
  /** COPY on the database `ingest` runs on (Database.copyRows): how the rows reach their tables. */
  copyRows: CopyRows;
  context: ContextModel;
  type: EntityType;
  /** The attributes the rows carry (identity ones included), in their order in RowChunk.values; others stay as they are. */
  attributes: Attribute[];
  chunks: AsyncIterable<RowChunk>;
  /** How a column is named in messages (the file's header, or the attribute's uiName). */
  columnName: (attribute: string) => string;
  deleteMissing: boolean;
  missingScope?: MissingScope;
  /** Apply the changes at once (approval off, or approveEverything) instead of holding them. */
  apply: boolean;
  dryRun: boolean;
  confirmMassMissing: boolean;
  source: string;
  user: string;
  /** What `user` may propose on the type; the classified rows are checked against it (checkProposal). */
  rights: ProposalRights;
  maxRows: number;
  /**
   * `Database.transaction`, for a transaction that stays open while the whole file is read (an
   * upload's). Given, the first load of a type that holds no records writes them as they are read
   * (loadEmptyType), and a type that holds records is diffed chunk by chunk (diffWhileReading).
   */
  loadTransaction?: Database["transaction"];
  /**
   * Takes the index work a write leaves for after its commit (afterIngestCommit: the builds of
   * the indexes a first load or a bulk write dropped, the merge of pending trigram entries), for
   * the caller to start once it has answered: on PGlite's one session, work started at once would
   * be served before the caller's own next statements. The records are stored and readable
   * meanwhile, and writes to the type wait for the builds. A build that fails leaves the records
   * stored; the next start builds it. Without it, the answer waits for the work and throws a failure.
   */
  afterCommit?: (indexWork: () => Promise<void>) => void;
  /**
   * Takes the non-unique index builds that a bulk write of new records, in the caller's own
   * transaction, leaves for the caller to build once that has committed (a metadata import's; see
   * writeWithIndexRebuild). Without it they are built in the transaction.
   */
  buildIndexesLater?: (definitions: string[]) => void;
  /**
   * Runs in the ingest's transaction once its events are written (never on a dry run), with what
   * was written, for what must commit with them or not at all: the notifications of an upload.
   */
  beforeCommit?: (tx: Db, result: IngestResult) => Promise<void>;
}

/** The rights an ingest's rows may need of its proposer: create for an Add, edit for a Change, delete for a Missing. */
export interface ProposalRights {
  create: boolean;
  edit: boolean;
  delete: boolean;
}

export interface IngestResult extends Omit<DiffCounts, "existing"> {
  rows: number;
  pending: number;
  applied: number;
  /** Pending changes of other sources (or earlier runs) that the file contradicts (supersedeContradicted). */
  superseded: number;
}

/** What an ingest did with its changes, as parts of its summary: applied, pending, superseded. */
export function outcomeParts(
  r: Pick<IngestResult, "applied" | "pending" | "superseded">,
): string[] {
  const parts: string[] = [];
  if (r.applied > 0) parts.push(`${counted(r.applied, "change")} applied`);
  if (r.pending > 0) parts.push(`${counted(r.pending, "change")} pending approval`);
  if (r.applied === 0 && r.pending === 0) parts.push("nothing to change");
  if (r.superseded > 0)
    parts.push(`${counted(r.superseded, "earlier pending change")} it contradicts superseded`);
  return parts;
}

/**
 * The ingest was refused; nothing was written. `status` 422 for bad rows, 409 for the mass-deletion
 * guard or records changed by someone else meanwhile, 403 for changes the proposer may not make. `problemRows`, when the rows themselves
 * were at fault: every failing row (up to MAX_PROBLEM_ROWS), for the problem list.
 */
export class IngestRejected extends Error {
  constructor(
    readonly status: 400 | 403 | 409 | 422,
    message: string,
    readonly problemRows?: readonly ProblemRow[],
  ) {
    super(message);
  }
}

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

export const writeOptions = ({
  source,
  user,
  apply,
  buildIndexesLater,
}: IngestInput): WriteOptions => ({ source, user, apply, buildIndexesLater });

/**
 * Index work a committed write of the ingest left (`work`): handed to the input's afterCommit
 * when it takes it, so the answer does not wait, else run and awaited.
 */
export async function afterIngestCommit(
  input: IngestInput,
  work: () => Promise<void>,
): Promise<void> {
  if (input.afterCommit) input.afterCommit(work);
  else await work();
}

/** Builds the non-unique indexes a committed bulk write of the ingest left out (buildIndexes), after its commit. */
export async function buildIndexesAfterCommit(
  db: Db,
  input: IngestInput,
  definitions: readonly string[],
): Promise<void> {
  if (definitions.length > 0) await afterIngestCommit(input, () => buildIndexes(db, definitions));
}
