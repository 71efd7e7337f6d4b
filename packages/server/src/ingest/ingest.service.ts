import type { ScalarValue } from "@ledgerline/contract";
import { sql } from "kysely";
import type { CopyRows, Database, Db } from "../db/connection.ts";
import { isDeadlock } from "../db/pg-errors.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { identityAttributes } from "../model/model.ts";
import { buildIndexes, loadEmptyTable } from "../records/index-rebuild.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import {
  ConcurrentChangeError,
  classifyStage,
  countDiff,
  type DiffCounts,
  eventSequence,
  insertNewRecords,
  type MissingScope,
  writeEvents,
} from "./diff.repository.ts";
import { resolveReferences } from "./reference-resolver.ts";
import type { IngestValue } from "./row-converter.ts";
import {
  createStage,
  dropStage,
  duplicateKeys,
  indexStageKeys,
  indexStageRowNumbers,
  insertStageRows,
  type Stage,
  type StageRow,
  stageCopyData,
  stageTable,
} from "./stage.repository.ts";

export interface IngestRow {
  rowNumber: number;
  /** Converted values of the present attributes; references as text (identity or label) or key id. */
  values: Record<string, IngestValue>;
  /** Problems found while converting this row, already worded `column 'X': reason`. */
  problems: string[];
}

export interface IngestInput {
  /** COPY on the database `ingest` runs on (Database.copyRows): how the rows reach the stage. */
  copyRows: CopyRows;
  context: ContextModel;
  type: EntityType;
  /** The attributes the rows carry (identity ones included); others stay as they are. */
  attributes: Attribute[];
  rows: AsyncIterable<IngestRow>;
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
  maxRows: number;
  /**
   * `Database.transaction` where one transaction may stay open while a whole file is read (not on
   * PGlite, which would serve nothing else meanwhile). Given, the first load of a type that holds
   * no records writes them as they are read (loadEmptyType).
   */
  loadTransaction?: Database["transaction"];
  /**
   * Told when an index a first load built after its commit failed: the records are stored, and the
   * next start builds the index. Without it, that failure is thrown.
   */
  onIndexFailure?: (error: unknown) => void;
}

export interface IngestResult extends Omit<DiffCounts, "existing"> {
  rows: number;
  pending: number;
  applied: number;
}

/**
 * The ingest was refused; nothing was written. `status` 422 for bad rows, 409 for the mass-deletion
 * guard or records changed by someone else meanwhile.
 */
export class IngestRejected extends Error {
  constructor(
    readonly status: 400 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

const CHUNK = 5_000;

/** Runs in the caller's transaction when there is one (a metadata import ingests two types at once). */
function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
const MAX_PROBLEMS = 50;
/**
 * The advisory lock that serialises ingests of one type, so two uploads never diff against each
 * other's half-written state, as a SQL expression.
 */
const lockId = ({ context, type }: IngestInput) =>
  sql`hashtext(${`ingest:${context.name}/${type.name}`})`;

/**
 * The shared ingest engine (uploads and metadata imports): rows in, staged in chunks, diffed
 * set-based by natural key, then written as events in one short transaction. All or nothing.
 */
export async function ingest(db: Db, input: IngestInput): Promise<IngestResult> {
  const stage = await createStage(db, input.attributes);
  let failed = false;
  try {
    const loaded = await loadEmptyType(db, input, stage);
    if (loaded) return loaded;
    const rows = await stageRows(db, input, stage);
    await checkKeys(db, input, stage);
    return await inTransaction(db, async (tx) => {
      await lockType(tx, input);
      // The classification joins the whole file with the type: let its hash tables fit in memory.
      await sql`set local work_mem = '64MB'`.execute(tx);
      const missing = { deleteMissing: input.deleteMissing, scope: input.missingScope };
      await classifyStage(tx, input.context, input.type, stage, missing);
      const counts = await countDiff(
        tx,
        input.context,
        input.type,
        stage,
        input.missingScope,
        rows,
      );
      checkMassMissing(input, counts);
      const { existing: _existing, ...result } = counts;
      if (input.dryRun) return { ...result, rows, pending: 0, applied: 0 };
      const events =
        result.added + result.changed + result.missing === 0
          ? 0
          : await writeEvents(tx, input.context, input.type, stage, writeOptions(input));
      return input.apply
        ? { ...result, rows, pending: 0, applied: events }
        : { ...result, rows, pending: events, applied: 0 };
    });
  } catch (error) {
    failed = true;
    if (error instanceof ConcurrentChangeError)
      throw new IngestRejected(409, `${error.message}; nothing was changed. Please try again.`);
    if (isDeadlock(error))
      throw new IngestRejected(
        409,
        "Another change to the same records ran at the same time; nothing was changed. Please try again.",
      );
    throw error;
  } finally {
    // Failing inside a caller's transaction fails that transaction, whose rollback takes the stage
    // with it; dropping it there could only hide the error behind "transaction aborted".
    if (!(failed && db.isTransaction)) await dropStage(db, stage);
  }
}

/**
 * The first load of a type that holds no records at all: every row is an Add, so each chunk's
 * records and their events are written as soon as it is staged, while the file is still being
 * read, with the type's secondary indexes dropped for the load. It is one transaction, so a bad
 * row or a repeated key anywhere rolls all of it back; the non-unique indexes are built after it
 * commits, several at once (buildIndexes), and the answer waits for them. The type's table stays
 * locked until the commit: its readers wait, and so do lists of types that refer to it (they would
 * only see it empty). Answers undefined, having read no row, when the path does not apply: a dry
 * run, a caller's transaction, no loadTransaction, a type that refers to itself (a row may only
 * refer to records stored before the file, never to rows of earlier chunks), a type that holds
 * records, or one another ingest or its readers keep busy.
 */
async function loadEmptyType(
  db: Db,
  input: IngestInput,
  stage: Stage,
): Promise<IngestResult | undefined> {
  const transaction = input.loadTransaction;
  const { context, type } = input;
  const selfReferring = input.attributes.some((a) => a.referencedEntityType === type.name);
  if (!transaction || input.dryRun || db.isTransaction || selfReferring) return undefined;
  const loaded = await transaction(async (tx) => {
    // Another ingest of the type is under way: rather than wait for it, go through the diff.
    if (!(await tryLockType(tx, input))) return undefined;
    const events = await eventSequence(tx);
    return loadEmptyTable(tx, context.schema, type.name, async () => {
      await indexStageRowNumbers(tx, stage);
      const rows = await stageRows(tx, input, stage, async (first, last, staged) => {
        const where = sql<boolean>`s._row_no between ${first} and ${last}`;
        const from = stageTable(stage);
        const written = await insertNewRecords(
          tx,
          context,
          type,
          stage,
          { from, where, events },
          writeOptions(input),
        );
        if (written !== staged)
          throw new Error(
            `rows ${first}-${last}: ${written} written of ${staged}; row numbers must increase`,
          );
      });
      await checkKeys(tx, input, stage);
      if (input.apply) await adjustTypeCount(tx, context.name, type.name, rows);
      const counts = { rows, added: rows, changed: 0, missing: 0, unchanged: 0 };
      return input.apply
        ? { ...counts, pending: 0, applied: rows }
        : { ...counts, pending: rows, applied: 0 };
    });
  });
  if (!loaded) return undefined;
  await buildIndexes(db, loaded.indexes).catch((error) => {
    if (!input.onIndexFailure) throw error;
    input.onIndexFailure(error);
  });
  return loaded.result;
}

const writeOptions = ({ source, user, apply }: IngestInput) => ({ source, user, apply });

/** Serialises ingests of one type until the transaction ends. */
async function lockType(tx: Db, input: IngestInput): Promise<void> {
  await sql`select pg_advisory_xact_lock(${lockId(input)})`.execute(tx);
}

/** lockType if no other ingest of the type holds it; answers whether it did. */
async function tryLockType(tx: Db, input: IngestInput): Promise<boolean> {
  const { rows } = await sql<{ locked: boolean }>`
    select pg_try_advisory_xact_lock(${lockId(input)}) as locked`.execute(tx);
  return rows[0].locked;
}

/** Refuses the file (422) when a natural key repeats in it. */
async function checkKeys(db: Db, input: IngestInput, stage: Stage): Promise<void> {
  const identity = identityAttributes(input.type).map((a) => a.name);
  if (await indexStageKeys(db, stage, identity)) return;
  const duplicates = await duplicateKeys(db, stage, identity, MAX_PROBLEMS);
  const lines = duplicates.map(
    (d) => `rows ${d.rows.join(", ")}: the key '${d.key}' appears more than once`,
  );
  throw new IngestRejected(422, problemText(lines));
}

function problemText(lines: readonly string[], more = false): string {
  const head = `The file was refused; nothing was changed. ${more ? `The first ${lines.length} problems:` : "Problems:"}`;
  return [head, ...lines].join("\n");
}

function checkMassMissing(input: IngestInput, counts: DiffCounts): void {
  if (input.confirmMassMissing || counts.missing === 0 || counts.missing * 2 <= counts.existing)
    return;
  throw new IngestRejected(
    409,
    `This upload would mark ${counts.missing} of ${counts.existing} ${input.type.uiName} records missing (more than half). ` +
      "Check the file, or confirm to continue.",
  );
}

/**
 * Streams the rows into the staging table in chunks, resolving references per chunk; throws 422 on
 * any problem. `staged` runs after each chunk is written, with its first and last row numbers and
 * its number of rows. Nothing is left running when it returns or throws.
 */
async function stageRows(
  db: Db,
  input: IngestInput,
  stage: Stage,
  staged?: (first: number, last: number, rows: number) => Promise<void>,
): Promise<number> {
  const problems: string[] = [];
  let chunk: IngestRow[] = [];
  let count = 0;
  // One chunk is written while the next is read and converted.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    // A failed write fails the rest of a transaction: its error is the one to report.
    const resolved = await resolveChunk(db, input, chunk, problems).catch(async (error) => {
      await writing;
      throw error;
    });
    chunk = [];
    if (problems.length > 0 || resolved.length === 0) return await writing;
    // Made while the previous chunk is still being written: once the connection is free, the
    // COPY only has to send it.
    const data = stageCopyData(stage, resolved);
    const [first, last] = [resolved[0].rowNumber, resolved[resolved.length - 1].rowNumber];
    await writing;
    writing = insertStageRows(db, input.copyRows, stage, data).then(() =>
      staged?.(first, last, resolved.length),
    );
    // Handled when awaited; this keeps a failure while reading on from going unhandled.
    writing.catch(() => undefined);
  };
  try {
    for await (const row of input.rows) {
      count += 1;
      if (count > input.maxRows)
        throw new IngestRejected(
          422,
          `The file has more than ${input.maxRows} rows, the most one upload may carry`,
        );
      for (const p of row.problems)
        if (problems.length < MAX_PROBLEMS) problems.push(`row ${row.rowNumber}, ${p}`);
      if (problems.length >= MAX_PROBLEMS) break;
      chunk.push(row);
      if (chunk.length >= CHUNK) await flush();
    }
  } catch (error) {
    // A write still running must end before the caller rolls its transaction back.
    await writing.catch(() => undefined);
    throw error;
  }
  if (problems.length < MAX_PROBLEMS) await flush();
  await writing;
  if (problems.length > 0)
    throw new IngestRejected(422, problemText(problems, problems.length >= MAX_PROBLEMS));
  return count;
}

async function resolveChunk(
  db: Db,
  input: IngestInput,
  rows: IngestRow[],
  problems: string[],
): Promise<StageRow[]> {
  const refs = input.attributes.filter((a) => a.dataType === "Reference");
  // Without reference columns every value is a scalar already: no copy of 5,000 rows to make.
  if (refs.length === 0) return rows as StageRow[];
  const maps = new Map<string, Map<string, number>>();
  for (const attr of refs) {
    const texts = new Set<string>();
    for (const r of rows) {
      const v = r.values[attr.name];
      if (v !== null && typeof v === "object") texts.add(v.ref);
    }
    maps.set(attr.name, await resolveReferences(db, input.context, attr, texts));
  }
  return rows.map((r) => {
    const values: Record<string, ScalarValue> = {};
    for (const attr of input.attributes) {
      const v = r.values[attr.name] ?? null;
      if (v === null || typeof v !== "object") {
        values[attr.name] = v;
        continue;
      }
      const id = maps.get(attr.name)?.get(v.ref.toLowerCase());
      if (id === undefined && problems.length < MAX_PROBLEMS) {
        problems.push(
          `row ${r.rowNumber}, column '${input.columnName(attr.name)}': no ${attr.uiName} '${v.ref}'`,
        );
      }
      values[attr.name] = id ?? null;
    }
    return { rowNumber: r.rowNumber, values };
  });
}
