import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { CopyData } from "../db/copy-text.ts";
import { indexEntryTooLong, isDeadlock } from "../db/pg-errors.ts";
import { identityAttributes } from "../model/model.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import { copyInChunks, type ResolvedChunk } from "./chunk-copy.ts";
import {
  ConcurrentChangeError,
  classifyStage,
  countDiff,
  supersedeContradicted,
  writeEvents,
} from "./diff.repository.ts";
import { diffWhileReading } from "./diff-while-reading.ts";
import { loadEmptyType } from "./first-load.ts";
import { lightenHistory } from "./history-indexes.ts";
import {
  checkKeys,
  checkMassMissing,
  checkMissingUnreferencedInDiff,
  uniqueProblems,
} from "./ingest-checks.ts";
import {
  buildIndexesAfterCommit,
  type IngestInput,
  IngestRejected,
  type IngestResult,
  problemRowsRejected,
  type RuleBreakingRow,
  writeOptions,
} from "./ingest-input.ts";
import { lockType } from "./ingest-lock.repository.ts";
import { checkProposal } from "./proposal-rights.ts";
import { createRuleRows, keepRuleRows, refusedRuleRows } from "./rule-breaking.ts";
import {
  createStage,
  dropStage,
  indexStageKeys,
  insertStageRows,
  stageCopyData,
} from "./stage.repository.ts";

/** Runs in the caller's transaction when there is one (a metadata import ingests two types at once). */
function inTransaction<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * The shared ingest engine (uploads and metadata imports): rows in, staged in chunks, diffed
 * set-based by natural key, then written as events in one short transaction; an upload is
 * written while its file is read instead where it can be (loadEmptyType, diffWhileReading). All or
 * nothing.
 */
export async function ingest(db: Db, input: IngestInput): Promise<IngestResult> {
  try {
    return (
      (await loadEmptyType(db, input)) ??
      (await diffWhileReading(db, input)) ??
      (await ingestByDiff(db, input))
    );
  } catch (error) {
    if (error instanceof ConcurrentChangeError)
      throw new IngestRejected(409, `${error.message}; nothing was changed. Please try again.`);
    const tooLong = indexEntryTooLong(error);
    if (tooLong) throw new IngestRejected(422, tooLong);
    if (isDeadlock(error))
      throw new IngestRejected(
        409,
        "Another change to the same records ran at the same time; nothing was changed. Please try again.",
      );
    throw error;
  }
}

/** Stages the rows, classifies them against the stored records and writes the difference. */
async function ingestByDiff(db: Db, input: IngestInput): Promise<IngestResult> {
  const stage = await createStage(db, input.attributes);
  // Whether some row breaks a rule alone: kept to be judged on the diff (rule-breaking.ts).
  let ruleRows = false;
  let failed = false;
  try {
    const sink = {
      copyData: (chunk: ResolvedChunk) => stageCopyData(stage, chunk),
      // Refused or not, the whole file is staged: a refusal lists every row the stage shows at fault.
      async write(data: CopyData, ruleBreaking: readonly RuleBreakingRow[]) {
        if (ruleBreaking.length > 0) {
          if (!ruleRows) await createRuleRows(db, stage);
          ruleRows = true;
          await keepRuleRows(db, stage, ruleBreaking);
        }
        await insertStageRows(db, input.copyRows, stage, data);
        return [];
      },
    };
    // A refusal for bad rows also names the rows that passed but break a unique rule, and the
    // rows breaking a rule alone that the file's diff refuses.
    const more = async () => {
      await indexStageKeys(
        db,
        stage,
        identityAttributes(input.type).map((a) => a.name),
      );
      const problems = await uniqueProblems(db, input, stage);
      if (!ruleRows) return problems;
      await classifyStage(db, input.context, input.type, stage, { deleteMissing: false });
      return [...problems, ...(await refusedRuleRows(db, stage, stage))];
    };
    const rows = await copyInChunks(db, input, sink, more);
    await checkKeys(db, input, stage);
    // Listed with the rows their broken rules refuse, once the diff has judged those.
    const notUnique = await uniqueProblems(db, input, stage);
    if (notUnique.length > 0 && !ruleRows) throw problemRowsRejected(notUnique);
    // Outside a caller's transaction, the index builds a bulk write leaves out wait for the commit,
    // as a first load's do: the transaction (on PGlite, the one session) is held that much shorter.
    const own = !db.isTransaction;
    const later: string[] = [];
    const options = {
      ...writeOptions(input),
      buildIndexesLater:
        input.buildIndexesLater ??
        (own ? (definitions: string[]) => later.push(...definitions) : undefined),
    };
    const answer = await inTransaction(db, async (tx) => {
      await lockType(tx, input);
      // The classification joins the whole file with the type: let its hash tables fit in memory.
      await sql`set local work_mem = '64MB'`.execute(tx);
      // Its cost is estimated from statistics a bulk write may have left stale (a re-import right
      // after the first one was approved) and can pass JIT's thresholds: compiling took 0.5-1.0 s
      // of a 1.2-1.9 s classification of 400,000 rows, which took 0.85 s without it.
      await sql`set local jit = off`.execute(tx);
      const missing = { deleteMissing: input.deleteMissing, scope: input.missingScope };
      await classifyStage(tx, input.context, input.type, stage, missing);
      const refused = ruleRows ? await refusedRuleRows(tx, stage, stage) : [];
      if (refused.length + notUnique.length > 0)
        throw problemRowsRejected([...refused, ...notUnique]);
      const counts = await countDiff(
        tx,
        input.context,
        input.type,
        stage,
        input.missingScope,
        rows,
      );
      checkProposal(input, counts);
      checkMassMissing(input, counts);
      const { existing: _existing, ...result } = counts;
      if (input.dryRun) {
        // What the upload's own check (checkMissingUnreferenced) would refuse once written.
        if (input.apply && result.missing > 0)
          await checkMissingUnreferencedInDiff(tx, input, stage);
        return { ...result, rows, pending: 0, applied: 0, superseded: 0 };
      }
      if (own && input.apply)
        later.push(...(await lightenHistory(tx, input, result.changed + result.missing)));
      const { events, visibleChange } =
        result.added + result.changed + result.missing === 0
          ? { events: 0, visibleChange: 0 }
          : await writeEvents(tx, input.context, input.type, stage, options);
      await adjustTypeCount(tx, input.context.name, input.type.name, visibleChange);
      const superseded = await supersedeContradicted(
        tx,
        input.context,
        input.type,
        stage,
        input.user,
      );
      const written = input.apply
        ? { ...result, rows, pending: 0, applied: events, superseded }
        : { ...result, rows, pending: events, applied: 0, superseded };
      await input.beforeCommit?.(tx, written);
      return written;
    });
    await buildIndexesAfterCommit(db, input, later);
    return answer;
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    // Failing inside a caller's transaction fails that transaction, whose rollback takes the stage
    // with it; dropping it there could only hide the error behind "transaction aborted".
    if (!(failed && db.isTransaction)) await dropStage(db, stage);
  }
}
