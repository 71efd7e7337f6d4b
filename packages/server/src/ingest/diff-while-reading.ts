import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { identityAttributes } from "../model/model.ts";
import { gatherPendingEntries, MIN_BULK_ROWS } from "../records/index-rebuild.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import type { LaterWork } from "./after-commit.ts";
import {
  chunkDiff,
  classifyMissing,
  classifyStage,
  comparableCount,
  type KindCounts,
  kindCounts,
} from "./classify.repository.ts";
import { checkKeys, checkMassMissing, checkProposal } from "./guard.ts";
import { lightenHistory } from "./history-indexes.ts";
import type { IngestInput } from "./ingest-input.ts";
import { problemRowsRejected } from "./refusals.ts";
import type { ProblemRow } from "./rows.ts";
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
import type { Strategy } from "./strategy.ts";
import {
  anyPending,
  supersedeContradicted,
  withdrawAbsentProposals,
  writeEvents,
  writeOptions,
} from "./write.repository.ts";

const NO_CHANGES: KindCounts = { added: 0, proposals: 0, changed: 0, revived: 0, missing: 0 };

/**
 * The diff of a type that holds records, written while the file is read, in the one transaction
 * open since the start: stage 3 stages each chunk, classifies it against the stored records,
 * guards it and writes it as events while the parser reads the next, so the database works
 * alongside the parser instead of after it. Once the file is read, its keys are checked for
 * repeats, and with deleteMissing the records it lacks are classified Missing, the mass-deletion
 * guard judging their number, and written. When the new records come to outnumber the type's,
 * the rest of the file is only staged, and classified, guarded and written in one go at the end
 * instead, as a bulk write. Any refusal rolls all of it back. Not for a type with a unique rule,
 * whose check must see the whole file before anything is written.
 */
export async function startDiffWhileReading(
  tx: Db,
  input: IngestInput,
  later: LaterWork,
): Promise<Strategy> {
  const { context, type } = input;
  // The classifications join the rows with the type: let their hash tables fit in memory.
  await sql`set local work_mem = '64MB'`.execute(tx);
  await gatherPendingEntries(tx);
  later.mergePending = true;
  const existing = await comparableCount(tx, context, type, input.missingScope);
  // Whether to write the history without its indexes is decided once: at the first chunk whose
  // changes, scaled to the file, reach MIN_BULK_ROWS versions, or at the Missing rows.
  let historyDecided = !input.apply;
  const expectVersions = async (versions: number) => {
    if (historyDecided || versions < MIN_BULK_ROWS) return;
    historyDecided = true;
    later.indexes.push(...(await lightenHistory(tx, input, versions)));
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
  const totals = { ...NO_CHANGES, events: 0, visibleChange: 0, superseded: 0 };
  // What the end classifies: the rest kept for one write, and the Missing records.
  let restKinds = NO_CHANGES;
  let missingKinds = NO_CHANGES;
  // Only pending changes can be contradicted: without any, the statement is left out per chunk.
  const contradictable = await anyPending(tx, context, type);
  // A chunk's diff and the Missing rows are written in slices, so that no statement holds PGlite's
  // one session long; the rows kept for one bulk write at the end are written whole.
  const slices = new Map([chunk, keys].map((stage) => [stage, diffSlices(stage)]));
  const writeDiff = async (of: Stage, kinds: KindCounts) => {
    const write = async (diff: Stage) => {
      const counts = diff === of ? kinds : await kindCounts(tx, diff);
      const written = await writeEvents(tx, context, type, diff, writeOptions(input), counts);
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
  return {
    db: tx,
    copyData: (rows) => stageCopyData(chunk, rows),
    async stage(data, ruleBreaking, refusing) {
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
          // Refused before its rows are written; what earlier chunks wrote rolls back with the
          // transaction. The counts are the chunk's: the file may hold more.
          checkProposal(input, kinds, true);
          await expectVersions(Math.round((kinds.changed * existing) / data.rows));
          await writeDiff(chunk, kinds);
          bulk = totals.added >= MIN_BULK_ROWS && totals.added >= existing;
        }
      }
      await appendStage(tx, chunk, keys);
      await emptyStage(tx, chunk);
      return refused;
    },
    // Refused, the rows kept for the one write are judged all the same.
    async moreProblems() {
      if (!bulkRules) return [];
      await classifyStage(tx, context, type, rest, { deleteMissing: false });
      return refusedRuleRows(tx, chunk, rest);
    },
    checkKeys: () => checkKeys(tx, input, keys),
    inTransaction: (work) => work(tx),
    async classify(_tx, rows) {
      if (bulk) {
        await classifyStage(tx, context, type, rest, { deleteMissing: false });
        restKinds = await kindCounts(tx, rest);
      }
      if (input.deleteMissing) {
        await classifyMissing(tx, context, type, keys, input.missingScope);
        missingKinds = await kindCounts(tx, keys);
      }
      const added = totals.added + restKinds.added;
      const changed = totals.changed + restKinds.changed;
      const missing = totals.missing + missingKinds.missing;
      return { added, changed, missing, unchanged: rows - added - changed, existing };
    },
    async guard(_tx, counts) {
      if (bulk) {
        const refused = ruleRows ? await refusedRuleRows(tx, chunk, rest) : [];
        if (refused.length > 0) throw problemRowsRejected(refused);
        checkProposal(input, restKinds, true);
      }
      // A refusal goes before the guard's question, which it would make pointless.
      checkProposal(input, missingKinds);
      checkMassMissing(input, counts);
    },
    async write(_tx, _counts, rows) {
      if (bulk) await writeDiff(rest, restKinds);
      if (input.deleteMissing) {
        await expectVersions(missingKinds.missing);
        await writeDiff(keys, missingKinds);
        totals.superseded += await withdrawAbsentProposals(
          tx,
          context,
          type,
          keys,
          input.missingScope,
          input.user,
        );
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
    },
    // The transaction's rollback takes the stages with it; its commit, the drops above.
    close: async () => undefined,
  };
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
