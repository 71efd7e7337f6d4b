import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { checkTreeOfIngest } from "../hierarchy/tree-of-ingest.ts";
import { identityAttributes } from "../model/model.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import type { LaterWork } from "./after-commit.ts";
import {
  classifyStage,
  comparableCount,
  type KindCounts,
  kindCounts,
} from "./classify.repository.ts";
import {
  checkKeys,
  checkMassMissing,
  checkMissingUnreferencedInDiff,
  checkProposal,
  uniqueProblems,
} from "./guard.ts";
import { lightenHistory } from "./history-indexes.ts";
import type { IngestInput } from "./ingest-input.ts";
import { lockType } from "./ingest-lock.repository.ts";
import { problemRowsRejected } from "./refusals.ts";
import { createRuleRows, keepRuleRows, refusedRuleRows } from "./rule-breaking.ts";
import {
  createStage,
  dropStage,
  indexStageKeys,
  insertStageRows,
  stageCopyData,
} from "./stage.repository.ts";
import type { Strategy } from "./strategy.ts";
import {
  supersedeContradicted,
  withdrawAbsentProposals,
  writeEvents,
  writeOptions,
} from "./write.repository.ts";

/**
 * The staged diff: the whole file is staged (stage 3) in a table of its own, statement by
 * statement, and only then classified, guarded and written, in one short transaction. Taken where
 * no transaction may stay open while the file is read (a dry run, every reading slot taken,
 * another ingest of the type under way), for a type with a unique rule, whose check must see the
 * whole file before anything is written, in a caller's transaction (a metadata import's) for a
 * type that holds records, and for rows that refer to their own type. Refused or not, the whole
 * file is staged: a refusal lists every row the stage shows at fault.
 */
export async function stagedDiff(db: Db, input: IngestInput, later: LaterWork): Promise<Strategy> {
  const { context, type } = input;
  const stage = await createStage(db, input.attributes);
  // Whether some row breaks a rule alone: kept to be judged on the diff (rule-breaking.ts).
  let ruleRows = false;
  let kinds: KindCounts = { added: 0, proposals: 0, changed: 0, revived: 0, missing: 0 };
  // Outside a caller's transaction, the index builds a bulk write leaves out wait for the commit,
  // as a first load's do: the transaction (on PGlite, the one session) is held that much shorter.
  const own = !db.isTransaction;
  const options = {
    ...writeOptions(input),
    buildIndexesLater:
      input.buildIndexesLater ??
      (own ? (definitions: string[]) => later.indexes.push(...definitions) : undefined),
  };
  return {
    db,
    copyData: (rows) => stageCopyData(stage, rows),
    async stage(data, ruleBreaking) {
      if (ruleBreaking.length > 0) {
        if (!ruleRows) await createRuleRows(db, stage);
        ruleRows = true;
        await keepRuleRows(db, stage, ruleBreaking);
      }
      await insertStageRows(db, input.copyRows, stage, data);
      return [];
    },
    // Refused for bad rows, the file's refusal also names the rows that passed but break a unique
    // rule, and the rows breaking a rule alone that the file's diff refuses.
    async moreProblems() {
      await indexStageKeys(
        db,
        stage,
        identityAttributes(type).map((a) => a.name),
      );
      const problems = await uniqueProblems(db, input, stage);
      if (!ruleRows) return problems;
      await classifyStage(db, context, type, stage, { deleteMissing: false });
      return [...problems, ...(await refusedRuleRows(db, stage, stage))];
    },
    checkKeys: () => checkKeys(db, input, stage),
    inTransaction: (work) =>
      inCallersOrOwn(db, async (tx) => {
        await lockType(tx, input);
        // The classification joins the whole file with the type: let its hash tables fit in memory.
        await sql`set local work_mem = '64MB'`.execute(tx);
        // Its cost is estimated from statistics a bulk write may have left stale (a re-import right
        // after the first one was approved) and can pass JIT's thresholds: compiling took 0.5-1.0 s
        // of a 1.2-1.9 s classification of 400,000 rows, which took 0.85 s without it.
        await sql`set local jit = off`.execute(tx);
        return work(tx);
      }),
    async classify(tx, rows) {
      const missing = { deleteMissing: input.deleteMissing, scope: input.missingScope };
      await classifyStage(tx, context, type, stage, missing);
      kinds = await kindCounts(tx, stage);
      const { proposals: _p, revived: _r, ...counts } = kinds;
      const existing = await comparableCount(tx, context, type, input.missingScope);
      return { ...counts, unchanged: rows - counts.added - counts.changed, existing };
    },
    async guard(tx, counts) {
      // The rows breaking a unique rule are listed with those their broken rules refuse.
      const refused = [
        ...(ruleRows ? await refusedRuleRows(tx, stage, stage) : []),
        ...(await uniqueProblems(tx, input, stage)),
      ];
      if (refused.length > 0) throw problemRowsRejected(refused);
      checkProposal(input, counts);
      checkMassMissing(input, counts);
      await checkTreeOfIngest(tx, input, stage);
      // What the check of the written changes (checkMissingUnreferenced) would refuse.
      if (input.dryRun && input.checkReferrers && input.apply && counts.missing > 0)
        await checkMissingUnreferencedInDiff(tx, input, stage);
    },
    async write(tx, counts, rows) {
      const { existing: _existing, ...result } = counts;
      if (own && input.apply)
        later.indexes.push(...(await lightenHistory(tx, input, result.changed + result.missing)));
      const { events, visibleChange } =
        result.added + result.changed + result.missing === 0
          ? { events: 0, visibleChange: 0 }
          : await writeEvents(tx, context, type, stage, options, kinds);
      await adjustTypeCount(tx, context.name, type.name, visibleChange);
      const superseded =
        (await supersedeContradicted(tx, context, type, stage, input.user)) +
        (input.deleteMissing
          ? await withdrawAbsentProposals(tx, context, type, stage, input.missingScope, input.user)
          : 0);
      return input.apply
        ? { ...result, rows, pending: 0, applied: events, superseded }
        : { ...result, rows, pending: events, applied: 0, superseded };
    },
    async close(failed) {
      // Failing inside a caller's transaction fails that transaction, whose rollback takes the
      // stage with it; dropping it there could only hide the error behind "transaction aborted".
      if (!(failed && db.isTransaction)) await dropStage(db, stage);
    },
  };
}

/** Runs in the caller's transaction when there is one (a metadata import ingests two types at once). */
function inCallersOrOwn<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
