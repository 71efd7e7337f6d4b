import type { Db } from "../db/connection.ts";
import { flatCopyData } from "../db/copy-text.ts";
import { withForeignKeysAfter } from "../records/foreign-key-rebuild.ts";
import { buildInTransaction, loadEmptyTable } from "../records/index-rebuild.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import { loadedUniqueBreaches, uniqueAttributes } from "../rules/unique.repository.ts";
import { copyInChunks } from "./chunk-copy.ts";
import { withoutRowNumbers } from "./chunk-text.ts";
import { eventSequence } from "./diff.repository.ts";
import {
  clearLoadDefaults,
  copyRecords,
  repeatedKeys,
  setLoadDefaults,
  writeAddEvents,
} from "./first-load.repository.ts";
import { nameReferences, uniqueProblemRow } from "./ingest-checks.ts";
import {
  buildIndexesAfterCommit,
  type IngestInput,
  type IngestResult,
  MAX_PROBLEM_ROWS,
  MAX_PROBLEMS,
  type ProblemRow,
  problemRowsRejected,
  refusedRows,
  repeatedKeysRejected,
  writeOptions,
} from "./ingest-input.ts";
import { lockType } from "./ingest-lock.repository.ts";
import { inReadingTransaction, selfReferring } from "./reading-slots.ts";

/**
 * The first load of a type that holds no records at all: every row is an Add, so each chunk is
 * COPYed straight into the type's table as it is read, with no staging, and its Add events are
 * written from the records, with the type's secondary indexes dropped for the load, and its
 * foreign keys to tables the transaction holds alone too (withForeignKeysAfter). It is one
 * transaction, so a bad row or a repeated key anywhere rolls all of it back; the non-unique
 * indexes are built after it commits, several at once (buildIndexes), and with afterCommit the
 * answer does not wait for them. The type's table stays locked until the commit: its readers
 * wait, and so do lists of types that refer to it (they would only see it empty). In a caller's
 * transaction (a metadata import's) it is that transaction, and the caller decides on the index
 * builds (buildIndexesLater). Answers undefined, having read no row, when the path does not
 * apply: where no transaction may stay open while the file is read (inReadingTransaction), for a
 * type that holds records, or one its readers keep busy, and for a proposer who may not create
 * records: every row would be an Add, which the diff paths refuse once they classify the first rows.
 */
export async function loadEmptyType(db: Db, input: IngestInput): Promise<IngestResult | undefined> {
  if (!input.rights.create) return undefined;
  const { context, type } = input;
  const load = async (tx: Db) => {
    // The file's row number of each record, in load order: repeated keys are reported by them.
    const rowNumbers: number[] = [];
    const table = await loadEmptyTable(
      tx,
      context.schema,
      type.name,
      () =>
        withForeignKeysAfter(tx, context.schema, type.name, () =>
          copyFirstLoad(tx, input, rowNumbers),
        ),
      () => repeatedKeysError(tx, input, rowNumbers),
    );
    if (table) {
      await checkUniqueLoaded(tx, input, rowNumbers);
      await input.beforeCommit?.(tx, table.result);
    }
    return table;
  };
  if (db.isTransaction) {
    const loaded = await inCallersTransaction(db, input, load);
    if (!loaded) return undefined;
    if (input.buildIndexesLater) input.buildIndexesLater(loaded.indexes);
    else await buildInTransaction(db, loaded.indexes);
    return loaded.result;
  }
  const loaded = await inReadingTransaction(db, input, load);
  if (!loaded) return undefined;
  await buildIndexesAfterCommit(db, input, loaded.indexes);
  return loaded.result;
}

/**
 * Runs `work` in the caller's transaction, which holds its rows in memory already (a metadata
 * import's), once it holds the type's ingest lock, as a staged ingest there waits for it. Answers
 * undefined without running it for a dry run or rows that refer to their own type.
 */
async function inCallersTransaction<T>(
  tx: Db,
  input: IngestInput,
  work: (tx: Db) => Promise<T | undefined>,
): Promise<T | undefined> {
  if (input.dryRun || selfReferring(input)) return undefined;
  await lockType(tx, input);
  return work(tx);
}

/** Writes every row as a new record with its Add event, in the table loadEmptyTable holds empty. */
async function copyFirstLoad(
  tx: Db,
  input: IngestInput,
  rowNumbers: number[],
): Promise<IngestResult> {
  const { context, type, attributes } = input;
  const options = writeOptions(input);
  await setLoadDefaults(tx, context, type, await eventSequence(tx), options);
  let lastKey = "0";
  // With a unique rule, a refusal for bad rows also names the rows that passed but break it.
  const more =
    uniqueAttributes(type).length > 0
      ? () => loadedUniqueProblems(tx, input, rowNumbers)
      : undefined;
  const rows = await copyInChunks(
    tx,
    input,
    {
      copyData(chunk) {
        for (const n of chunk.rowNumbers) rowNumbers.push(n);
        return chunk.copyText
          ? { text: withoutRowNumbers(chunk.copyText), rows: chunk.rowNumbers.length }
          : flatCopyData(chunk.values, attributes.length);
      },
      async write(data, ruleBreaking, refusing) {
        // Refused already, the load writes on only to find the unique rules' problems.
        if (refusing && !more) return refusedRows(ruleBreaking);
        await copyRecords(tx, input.copyRows, context, type, attributes, data);
        const { events, last } = await writeAddEvents(
          tx,
          context,
          type,
          attributes,
          lastKey,
          options,
        );
        if (events !== data.rows)
          throw new Error(`${events} Add events written for ${data.rows} records copied`);
        lastKey = last;
        // Every row of a first load adds a record: each rule a row breaks refuses it. The rows
        // were written all the same, so that unique problems name rows by their load order.
        return refusedRows(ruleBreaking);
      },
    },
    more,
  );
  await clearLoadDefaults(tx, context, type);
  if (input.apply) await adjustTypeCount(tx, context.name, type.name, rows);
  const counts = { rows, added: rows, changed: 0, missing: 0, unchanged: 0 };
  return input.apply
    ? { ...counts, pending: 0, applied: rows, superseded: 0 }
    : { ...counts, pending: rows, applied: 0, superseded: 0 };
}

/** The loaded rows whose value of a unique rule another loaded row has, named by `rowNumbers`. */
async function loadedUniqueProblems(
  tx: Db,
  input: IngestInput,
  rowNumbers: readonly number[],
): Promise<ProblemRow[]> {
  const problems: ProblemRow[] = [];
  for (const attr of uniqueAttributes(input.type)) {
    const breaches = await loadedUniqueBreaches(
      tx,
      input.context,
      input.type,
      attr,
      MAX_PROBLEM_ROWS,
    );
    for (const b of breaches)
      problems.push(uniqueProblemRow(input, attr, rowNumbers[b.position - 1], b.values));
  }
  return [...(await nameReferences(tx, input, problems))];
}

/** Refuses (422) a load in which a value of a unique rule repeats. */
async function checkUniqueLoaded(
  tx: Db,
  input: IngestInput,
  rowNumbers: readonly number[],
): Promise<void> {
  const problems = await loadedUniqueProblems(tx, input, rowNumbers);
  if (problems.length > 0) throw problemRowsRejected(problems);
}

/** The refusal of a load whose natural keys repeat, naming the rows by `rowNumbers`. */
async function repeatedKeysError(
  tx: Db,
  input: IngestInput,
  rowNumbers: readonly number[],
): Promise<Error> {
  const repeated = await repeatedKeys(tx, input.context, input.type, MAX_PROBLEMS);
  return repeatedKeysRejected(
    input,
    repeated.map(({ key, positions }) => ({ key, rows: positions.map((p) => rowNumbers[p - 1]) })),
  );
}
