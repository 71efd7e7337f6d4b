import type { Db } from "../db/connection.ts";
import { flatCopyData } from "../db/copy-text.ts";
import { addForeignKeys, dropForeignKeysHeldAlone } from "../records/foreign-key-rebuild.ts";
import {
  buildInTransaction,
  buildUniqueAgain,
  type SecondaryIndex,
  takeEmptyTable,
} from "../records/index-rebuild.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import { loadedUniqueBreaches, uniqueAttributes } from "../rules/unique.repository.ts";
import type { LaterWork } from "./after-commit.ts";
import { withoutRowNumbers } from "./chunk-text.ts";
import {
  clearLoadDefaults,
  copyRecords,
  repeatedKeys,
  setLoadDefaults,
  writeAddEvents,
} from "./first-load.repository.ts";
import { nameReferences, uniqueProblemRow } from "./guard.ts";
import type { IngestInput } from "./ingest-input.ts";
import {
  MAX_PROBLEM_ROWS,
  MAX_PROBLEMS,
  problemRowsRejected,
  repeatedKeysRejected,
} from "./refusals.ts";
import { type ProblemRow, refusedRows } from "./rows.ts";
import type { Strategy } from "./strategy.ts";
import { eventSequence, writeOptions } from "./write.repository.ts";

/**
 * The first load of a type that holds no records at all: every row is an Add, so each chunk is
 * COPYed straight into the type's table as it is read (stage 3 writes the records, with their Add
 * events), and nothing is classified. The type's secondary indexes are dropped for the load, and
 * its foreign keys to tables the transaction holds alone too; the unique indexes are built again
 * once the file is read, which is its check that no key repeats, the others after the commit
 * (stage 7), or in a caller's transaction (`callers`) by the caller (buildIndexesLater), else in
 * it. It is
 * one transaction, so a bad row or a repeated key anywhere rolls all of it back. The type's table
 * stays locked until the commit: its readers wait, and so do lists of types that refer to it
 * (they would only see it empty). Answers undefined, having changed nothing, for a type that holds
 * records or one its readers keep busy.
 */
export async function startFirstLoad(
  tx: Db,
  input: IngestInput,
  later: LaterWork,
  callers: boolean,
): Promise<Strategy | undefined> {
  const { context, type, attributes } = input;
  const indexes = await takeEmptyTable(tx, context.schema, type.name);
  if (!indexes) return undefined;
  const foreignKeys = await dropForeignKeysHeldAlone(tx, context.schema, type.name);
  const options = writeOptions(input);
  await setLoadDefaults(tx, context, type, await eventSequence(tx), options);
  // The file's row number of each record, in load order: problems are reported by them.
  const rowNumbers: number[] = [];
  let lastKey = "0";
  const unique = uniqueAttributes(type).length > 0;
  return {
    db: tx,
    copyData(chunk) {
      for (const n of chunk.rowNumbers) rowNumbers.push(n);
      return chunk.copyText
        ? { text: withoutRowNumbers(chunk.copyText), rows: chunk.rowNumbers.length }
        : flatCopyData(chunk.values, attributes.length);
    },
    async stage(data, ruleBreaking, refusing) {
      // Refused already, the load writes on only to find the unique rules' problems.
      if (refusing && !unique) return refusedRows(ruleBreaking);
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
      // Every row of a first load adds a record: each rule a row breaks refuses it. The rows were
      // written all the same, so that unique problems name rows by their load order.
      return refusedRows(ruleBreaking);
    },
    // With a unique rule, a refusal for bad rows also names the rows that passed but break it.
    moreProblems: async () => (unique ? loadedUniqueProblems(tx, input, rowNumbers) : []),
    async checkKeys() {
      if (await buildUniqueAgain(tx, indexes)) return;
      const repeated = await repeatedKeys(tx, context, type, MAX_PROBLEMS);
      throw repeatedKeysRejected(
        input,
        repeated.map(({ key, positions }) => ({
          key,
          rows: positions.map((p) => rowNumbers[p - 1]),
        })),
      );
    },
    inTransaction: (work) => work(tx),
    // Nothing to classify: every row adds a record.
    classify: async (_tx, rows) => ({
      added: rows,
      changed: 0,
      missing: 0,
      unchanged: 0,
      existing: 0,
    }),
    async guard() {
      const problems = await loadedUniqueProblems(tx, input, rowNumbers);
      if (problems.length > 0) throw problemRowsRejected(problems);
    },
    async write(_tx, _counts, rows) {
      await clearLoadDefaults(tx, context, type);
      await addForeignKeys(tx, context.schema, type.name, foreignKeys);
      if (input.apply) await adjustTypeCount(tx, context.name, type.name, rows);
      await leaveIndexes(tx, input, callers ? undefined : later, indexes);
      const counts = { rows, added: rows, changed: 0, missing: 0, unchanged: 0, superseded: 0 };
      return input.apply
        ? { ...counts, pending: 0, applied: rows }
        : { ...counts, pending: rows, applied: 0 };
    },
    close: async () => undefined,
  };
}

/**
 * The non-unique indexes dropped for the load: built after the commit, or, in a caller's
 * transaction, handed to it (buildIndexesLater) or built in it.
 */
async function leaveIndexes(
  tx: Db,
  input: IngestInput,
  later: LaterWork | undefined,
  indexes: readonly SecondaryIndex[],
): Promise<void> {
  const others = indexes.filter((i) => !i.unique).map((i) => i.definition);
  if (later) later.indexes.push(...others);
  else if (input.buildIndexesLater) input.buildIndexesLater(others);
  else await buildInTransaction(tx, others);
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
