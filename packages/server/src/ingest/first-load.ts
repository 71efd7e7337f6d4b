import type { Db } from "../db/connection.ts";
import { flatCopyData } from "../db/copy-text.ts";
import { loadEmptyTable } from "../records/index-rebuild.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import { loadedUniqueBreaches, uniqueAttributes } from "../rules/unique.repository.ts";
import { copyInChunks } from "./chunk-copy.ts";
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
  repeatedKeysRejected,
  writeOptions,
} from "./ingest-input.ts";
import { inReadingTransaction } from "./reading-slots.ts";

/**
 * The first load of a type that holds no records at all: every row is an Add, so each chunk is
 * COPYed straight into the type's table as it is read, with no staging, and its Add events are
 * written from the records, with the type's secondary indexes dropped for the load. It is one
 * transaction, so a bad row or a repeated key anywhere rolls all of it back; the non-unique
 * indexes are built after it commits, several at once (buildIndexes), and with afterCommit the
 * answer does not wait for them. The type's table stays locked until the commit: its readers
 * wait, and so do lists of types that refer to it (they would only see it empty). Answers
 * undefined, having read no row, when the path does not apply: where no transaction may stay open
 * while the file is read (inReadingTransaction), for a type that holds records, or one its readers
 * keep busy.
 */
export async function loadEmptyType(db: Db, input: IngestInput): Promise<IngestResult | undefined> {
  const { context, type } = input;
  const loaded = await inReadingTransaction(db, input, async (tx) => {
    // The file's row number of each record, in load order: repeated keys are reported by them.
    const rowNumbers: number[] = [];
    const table = await loadEmptyTable(
      tx,
      context.schema,
      type.name,
      () => copyFirstLoad(tx, input, rowNumbers),
      () => repeatedKeysError(tx, input, rowNumbers),
    );
    if (table) {
      await checkUniqueLoaded(tx, input, rowNumbers);
      await input.beforeCommit?.(tx, table.result);
    }
    return table;
  });
  if (!loaded) return undefined;
  await buildIndexesAfterCommit(db, input, loaded.indexes);
  return loaded.result;
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
        return flatCopyData(chunk.values, attributes.length);
      },
      async write(data) {
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
      },
    },
    more,
  );
  await clearLoadDefaults(tx, context, type);
  if (input.apply) await adjustTypeCount(tx, context.name, type.name, rows);
  const counts = { rows, added: rows, changed: 0, missing: 0, unchanged: 0 };
  return input.apply
    ? { ...counts, pending: 0, applied: rows }
    : { ...counts, pending: rows, applied: 0 };
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
  { context, type }: IngestInput,
  rowNumbers: readonly number[],
): Promise<Error> {
  const repeated = await repeatedKeys(tx, context, type, MAX_PROBLEMS);
  return repeatedKeysRejected(
    repeated.map(({ key, positions }) => ({ key, rows: positions.map((p) => rowNumbers[p - 1]) })),
  );
}
