import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { identityAttributes } from "../model/model.ts";
import {
  buildIndexes,
  gatherPendingEntries,
  MIN_BULK_ROWS,
  mergePendingEntries,
} from "../records/index-rebuild.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import { uniqueAttributes } from "../rules/unique.repository.ts";
import { copyInChunks } from "./chunk-copy.ts";
import {
  anyPending,
  chunkDiff,
  classifyMissing,
  classifyStage,
  comparableCount,
  type KindCounts,
  kindCounts,
  supersedeContradicted,
  writeEvents,
} from "./diff.repository.ts";
import { lightenHistory } from "./history-indexes.ts";
import { checkKeys, checkMassMissing } from "./ingest-checks.ts";
import {
  afterIngestCommit,
  type IngestInput,
  type IngestResult,
  type ProblemRow,
  problemRowsRejected,
  writeOptions,
} from "./ingest-input.ts";
import { checkProposal } from "./proposal-rights.ts";
import { inReadingTransaction } from "./reading-slots.ts";
import { createRuleRows, emptyRuleRows, keepRuleRows, refusedRuleRows } from "./rule-breaking.ts";
import {
  appendStage,
  createStage,
  createStageBeside,
  diffSlices,
  dropStage,
  emptyStage,
  insertStageRows,
  keysRepeat,
  type Stage,
  stageCopyData,
} from "./stage.repository.ts";

/**
 * The diff of a type that holds records, written while the file is read: in one transaction, each
 * chunk is staged, classified against the stored records and written as events while the parser
 * reads the next, so the database works alongside the parser instead of after it. Once the file is
 * read, its keys are checked for repeats and, with deleteMissing, the records it lacks are marked
 * Missing, the mass-deletion guard judging their number. When the new records come to outnumber
 * the type's, the rest of the file is written in one go at the end instead, as a bulk write. Any
 * refusal rolls all of it back. Answers undefined, having read no row, where no transaction may
 * stay open while the file is read (inReadingTransaction), or for a type with a unique rule,
 * whose check must see the whole file before anything is written: ingestByDiff is used instead,
 * which stages the whole file, then writes in a short transaction.
 */
export async function diffWhileReading(
  db: Db,
  input: IngestInput,
): Promise<IngestResult | undefined> {
  if (uniqueAttributes(input.type).length > 0) return undefined;
  // Definitions of the history's indexes, when they were dropped for the write (lightenHistory).
  const history: string[] = [];
  const result = await inReadingTransaction(db, input, async (tx) => {
    const written = await diffInTransaction(tx, input, history);
    await input.beforeCommit?.(tx, written);
    return written;
  });
  if (result)
    await afterIngestCommit(input, async () => {
      try {
        await buildIndexes(db, history);
      } finally {
        await mergePendingEntries(db, input.context.schema, input.type.name);
      }
    });
  return result;
}

async function diffInTransaction(
  tx: Db,
  input: IngestInput,
  history: string[],
): Promise<IngestResult> {
  const { context, type } = input;
  // The classifications join the rows with the type: let their hash tables fit in memory.
  await sql`set local work_mem = '64MB'`.execute(tx);
  await gatherPendingEntries(tx);
  const existing = await comparableCount(tx, context, type, input.missingScope);
  // Whether to write the history without its indexes is decided once: at the first chunk whose
  // changes, scaled to the file, reach MIN_BULK_ROWS versions, or at the Missing rows.
  let historyDecided = !input.apply;
  const expectVersions = async (versions: number) => {
    if (historyDecided || versions < MIN_BULK_ROWS) return;
    historyDecided = true;
    history.push(...(await lightenHistory(tx, input, versions)));
  };
  // One chunk stage and one diff for every chunk: tables made per chunk would each keep their
  // locks until the commit.
  const chunk = await createStage(tx, input.attributes);
  const classified = chunkDiff(context, type, chunk);
  await classified.create(tx);
  const rest = await createStageBeside(tx, chunk, "rest");
  // The whole file's keys, for its repeats and its Missing records: the rest of a row is written
  // by then.
  const keys = await createStage(tx, identityAttributes(type));
  const totals = {
    added: 0,
    changed: 0,
    missing: 0,
    events: 0,
    visibleChange: 0,
    superseded: 0,
  };
  // Only pending changes can be contradicted: without any, the statement is left out per chunk.
  const contradictable = await anyPending(tx, context, type);
  // A chunk's diff and the Missing rows are written in slices, so that no statement holds PGlite's
  // one session long; the rows kept for one bulk write at the end are written whole.
  const slices = new Map([chunk, keys].map((stage) => [stage, diffSlices(stage)]));
  const writeDiff = async (of: Stage, kinds: KindCounts) => {
    // Refused before its rows are written; what earlier chunks wrote rolls back with the transaction.
    checkProposal(input, kinds, of !== keys);
    const write = async (diff: Stage) => {
      const counted = diff === of ? kinds : undefined;
      const written = await writeEvents(tx, context, type, diff, writeOptions(input), counted);
      totals.events += written.events;
      totals.visibleChange += written.visibleChange;
    };
    const rows = kinds.added + kinds.changed + kinds.missing;
    await (slices.get(of)?.write(tx, rows, write) ?? write(of));
    totals.added += kinds.added;
    totals.changed += kinds.changed;
    totals.missing += kinds.missing;
    // The keys' diff holds the Missing rows alone: every file row would look unchanged against it.
    if (contradictable && of !== keys)
      totals.superseded += await supersedeContradicted(tx, context, type, of, input.user);
  };
  const identity = keys.attributes.map((a) => a.name);
  // Once a key repeats, the file will be refused (checkKeys): the rest is only staged.
  let repeated = false;
  // Whether some row breaks a rule alone: kept beside the chunk's stage (rule-breaking.ts); and
  // whether some of them wait in `rest`, to be judged on its diff.
  let ruleRows = false;
  let bulkRules = false;
  // Once the new records outnumber the type's, the rest of the file is likely a bulk load: it is
  // staged, then written in one go, which builds the indexes again rather than adding to them
  // row by row (writeWithIndexRebuild).
  let bulk = false;
  const rows = await copyInChunks(
    tx,
    input,
    {
      copyData: (rows) => stageCopyData(chunk, rows),
      async write(data, ruleBreaking, refusing) {
        await insertStageRows(tx, input.copyRows, chunk, data);
        repeated ||= await keysRepeat(tx, chunk, identity);
        if (ruleBreaking.length > 0) {
          if (!ruleRows) await createRuleRows(tx, chunk);
          ruleRows = true;
          await keepRuleRows(tx, chunk, ruleBreaking);
        }
        let refused: ProblemRow[] = [];
        if (repeated) {
          // The file will be refused (checkKeys): the chunk is only staged.
        } else if (bulk && !refusing) {
          await appendStage(tx, chunk, rest);
          bulkRules ||= ruleBreaking.length > 0;
        } else {
          await byLookups(tx, () => classified.classify(tx));
          // Judged on the chunk's diff, before it is written; the rows in `rest` on its diff, at
          // the end (they stay kept). Once the file is refused, chunks are only judged.
          if (ruleBreaking.length > 0) {
            refused = await refusedRuleRows(tx, chunk, chunk);
            if (!bulkRules) await emptyRuleRows(tx, chunk);
          }
          if (!refusing && refused.length === 0) {
            const kinds = await kindCounts(tx, chunk);
            await expectVersions(Math.round((kinds.changed * existing) / data.rows));
            await writeDiff(chunk, kinds);
            bulk = totals.added >= MIN_BULK_ROWS && totals.added >= existing;
          }
        }
        await appendStage(tx, chunk, keys);
        await emptyStage(tx, chunk);
        return refused;
      },
    },
    // Refused, the rows kept for the one write are judged all the same.
    async () => {
      if (!bulkRules) return [];
      await classifyStage(tx, context, type, rest, { deleteMissing: false });
      return refusedRuleRows(tx, chunk, rest);
    },
  );
  await checkKeys(tx, input, keys);
  if (bulk) {
    await classifyStage(tx, context, type, rest, { deleteMissing: false });
    const refused = ruleRows ? await refusedRuleRows(tx, chunk, rest) : [];
    if (refused.length > 0) throw problemRowsRejected(refused);
    await writeDiff(rest, await kindCounts(tx, rest));
  }
  if (input.deleteMissing) {
    await classifyMissing(tx, context, type, keys, input.missingScope);
    const kinds = await kindCounts(tx, keys);
    // A refusal goes before the guard's question, which it would make pointless.
    checkProposal(input, kinds);
    checkMassMissing(input, { missing: kinds.missing, existing });
    await expectVersions(kinds.missing);
    await writeDiff(keys, kinds);
  }
  // Adjusted once, at the end: every write of the type updates this one row, and a web create
  // of the type would otherwise wait for the whole file.
  await adjustTypeCount(tx, context.name, type.name, totals.visibleChange);
  for (const sliced of slices.values()) await sliced.drop(tx);
  for (const staged of [chunk, rest, keys]) await dropStage(tx, staged);
  const { added, changed, missing, events, superseded } = totals;
  const diff = { rows, added, changed, missing, unchanged: rows - added - changed, superseded };
  return input.apply
    ? { ...diff, pending: 0, applied: events }
    : { ...diff, pending: events, applied: 0 };
}

/**
 * Runs `work` with the planner joining by index lookups. Knowing nothing of a chunk just staged,
 * it would otherwise read and hash the whole type for every chunk (about 90 ms for 100,000
 * records) where a lookup per row through the identity index takes a fraction of that. Only for
 * that statement: the writes that follow join tables without indexes (the history trigger's old
 * and new rows), which must be hashed.
 */
async function byLookups(tx: Db, work: () => Promise<unknown>): Promise<void> {
  await sql`set local enable_hashjoin = off`.execute(tx);
  await sql`set local enable_mergejoin = off`.execute(tx);
  await work();
  await sql`reset enable_hashjoin`.execute(tx);
  await sql`reset enable_mergejoin`.execute(tx);
}
