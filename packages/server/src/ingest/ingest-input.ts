import { counted } from "../counted.ts";
import type { CopyRows, Database, Db } from "../db/connection.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { textProblem } from "../records/values.ts";
import { ruleProblems } from "../rules/row-rules.ts";
import type { IngestValue } from "./row-converter.ts";
import { ChunkBuilder, cellText, type ProblemRow, type RowChunk, type RowProblem } from "./rows.ts";

export interface IngestRow {
  rowNumber: number;
  /** Converted values of the present attributes; references as text (identity or label) or key id. */
  values: Record<string, IngestValue>;
  /** Problems found while converting this row. */
  problems: RowProblem[];
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

/** Limits Missing to the records whose attribute is one of the values, e.g. the data objects of one metadata source. */
export interface MissingScope {
  attribute: string;
  values: readonly number[];
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
  /**
   * Refuse (409) to discontinue records that live records still refer to, as a deletion from the
   * web refuses it (an upload's). A metadata import discontinues the referring records itself, in
   * its next ingest of the same transaction.
   */
  checkReferrers?: boolean;
  source: string;
  user: string;
  /** What `user` may propose on the type; the classified rows are checked against it (checkProposal). */
  rights: ProposalRights;
  maxRows: number;
  /**
   * `Database.transaction`, for a transaction that stays open while the whole file is read (an
   * upload's). Given, the first load of a type that holds no records writes them as they are read
   * (first-load.ts), and a type that holds records is diffed chunk by chunk (diff-while-reading.ts).
   */
  loadTransaction?: Database["transaction"];
  /**
   * Takes the index work a write leaves for after its commit (stage 7, after-commit.ts: the builds of
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

export interface DiffCounts {
  added: number;
  changed: number;
  unchanged: number;
  missing: number;
  /** Visible records of the type (in scope) before the ingest: the base of the mass-deletion guard. */
  existing: number;
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
