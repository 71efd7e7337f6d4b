import type { Db } from "../db/connection.ts";
import { indexEntryTooLong, isDeadlock } from "../db/pg-errors.ts";
import { uniqueAttributes } from "../rules/unique.repository.ts";
import { inSpan } from "../tracing/tracer.ts";
import { afterCommit, LaterWork } from "./after-commit.ts";
import { checkRows } from "./check-rows.ts";
import { startDiffWhileReading } from "./diff-while-reading.ts";
import { startFirstLoad } from "./first-load.ts";
import { checkMissingUnreferenced } from "./guard.ts";
import { type IngestInput, IngestRejected, type IngestResult } from "./ingest-input.ts";
import { lockType } from "./ingest-lock.repository.ts";
import { readRows } from "./read-rows.ts";
import { inReadingTransaction, selfReferring } from "./reading-slots.ts";
import { MAX_PROBLEM_ROWS, problemRowsRejected } from "./refusals.ts";
import type { ProblemRow } from "./rows.ts";
import { stagedDiff } from "./staged-diff.ts";
import type { Strategy } from "./strategy.ts";
import { ConcurrentChangeError } from "./write.repository.ts";

/**
 * The ingest engine, for uploads and metadata imports: rows in, changes to the type's records
 * out, as events, all or nothing. It runs as a pipeline of stages:
 *
 *   1. read      the rows, a chunk at a time, as the parser thread converts them (read-rows.ts)
 *   2. check     their references resolved, failing rows set aside; no key twice (check-rows.ts)
 *   3. stage     each chunk written where the strategy keeps it, while the next is read
 *   4. classify  the staged rows against the records: Added, Changed, Missing, Unchanged
 *   5. guard     the changes refused as a whole: rules judged on the change, the proposer's
 *                rights, mass deletion, uniqueness, records still referred to (guard.ts)
 *   6. write     events and records, contradicted pending changes superseded
 *   7. after the commit: index builds, the merge of pending trigram entries (after-commit.ts)
 *
 * How stages 3 to 6 do their work is a strategy (strategy.ts), chosen once, at the start
 * (withStrategy, below):
 *   - a first load (first-load.ts): the type holds no records, so stage 3 writes them as they
 *     are read and stage 4 has nothing to classify;
 *   - a diff while reading (diff-while-reading.ts): stage 3 classifies, guards and writes each
 *     chunk as it is read, in one transaction open from the start; stages 4 to 6 handle the rest
 *     kept for one bulk write and the Missing records;
 *   - a staged diff (staged-diff.ts): stage 3 stages the whole file, and stages 4 to 6 run in one
 *     short transaction once it is read.
 */
export function ingest(db: Db, input: IngestInput): Promise<IngestResult> {
  const attributes = {
    context: input.context.name,
    entity_type: input.type.name,
    source: input.source,
  };
  return inSpan("ingest", attributes, () => runPipeline(db, input));
}

/** Each stage in a span of its own (tracing/), named as the stage. */
const stage = <T>(name: string, work: () => Promise<T>) => inSpan(`ingest.${name}`, {}, work);

async function runPipeline(db: Db, input: IngestInput): Promise<IngestResult> {
  const later = new LaterWork();
  try {
    const result = await withStrategy(db, input, later, async (strategy) => {
      let failed = false;
      try {
        // 1. read, 2. check, 3. stage
        const rows = await stage("read", () => readCheckAndStage(input, strategy));
        await stage("check keys", () => strategy.checkKeys()); // 2. check: no natural key twice
        return await strategy.inTransaction(async (tx) => {
          const counts = await stage("classify", () => strategy.classify(tx, rows)); // 4.
          await stage("guard", () => strategy.guard(tx, counts)); // 5. guard
          if (input.dryRun) {
            const { existing: _existing, ...checked } = counts;
            return { ...checked, rows, pending: 0, applied: 0, superseded: 0 };
          }
          const written = await stage("write", () => strategy.write(tx, counts, rows)); // 6.
          // 5. guard, the one check that needs the written records: none left out is referred to.
          if (input.checkReferrers && written.missing > 0 && written.applied > 0)
            await stage("guard referrers", () => checkMissingUnreferenced(tx, input));
          await input.beforeCommit?.(tx, written);
          return written;
        });
      } catch (error) {
        failed = true;
        throw error;
      } finally {
        await strategy.close(failed);
      }
    });
    await stage("after commit", () => afterCommit(db, input, later)); // 7. indexes
    return result;
  } catch (error) {
    throw asRefusal(error);
  }
}

/**
 * Chooses how the rows are written, once, and runs `work` with that strategy. Where a
 * transaction may stay open while the file is read (inReadingTransaction: not for a dry run, nor
 * with every reading slot or the type's ingest lock taken), it is
 * opened, and a type that holds no records is loaded (given the right to create them), one
 * without a unique rule diffed while reading. In a caller's transaction (a metadata import's,
 * which holds its rows in memory), an empty type is loaded there, once it holds the type's lock.
 * Anything else is a staged diff. A type whose rows refer to the type itself is always a staged
 * diff: a row may only refer to records stored before the file, never to an earlier chunk's.
 */
async function withStrategy<T>(
  db: Db,
  input: IngestInput,
  later: LaterWork,
  work: (strategy: Strategy) => Promise<T>,
): Promise<T> {
  if (db.isTransaction) {
    if (input.rights.create && !input.dryRun && !selfReferring(input)) {
      await lockType(db, input);
      const load = await startFirstLoad(db, input, later, true);
      if (load) return work(load);
    }
    return work(await stagedDiff(db, input, later));
  }
  const whileReading = await inReadingTransaction(db, input, async (tx) => {
    const load = input.rights.create ? await startFirstLoad(tx, input, later, false) : undefined;
    if (load) return { done: await work(load) };
    if (uniqueAttributes(input.type).length > 0) return undefined;
    return { done: await work(await startDiffWhileReading(tx, input, later)) };
  });
  return whileReading ? whileReading.done : work(await stagedDiff(db, input, later));
}

/**
 * Stages 1 to 3, chunk by chunk: each chunk is read, checked, and staged while the next one is
 * read and checked. On a problem (a row that failed, or one the strategy found its rules refuse)
 * it reads on to the end to gather every failing row (up to MAX_PROBLEM_ROWS), the strategy told
 * so, and throws 422 with them and the problems the staged rows show beside them, so that one
 * refusal lists them all. Answers the number of rows read. Nothing is left running when it
 * returns or throws.
 */
async function readCheckAndStage(input: IngestInput, strategy: Strategy): Promise<number> {
  const problems: ProblemRow[] = [];
  const found = (rows: readonly ProblemRow[]) => {
    for (const row of rows) if (problems.length < MAX_PROBLEM_ROWS) problems.push(row);
  };
  let rows = 0;
  // The chunk being staged while the next is read and checked.
  let staging: Promise<void> = Promise.resolve();
  try {
    for await (const chunk of readRows(input)) {
      rows += chunk.rowNumbers.length;
      // Once a row failed, references are still resolved: their problems belong in the list too.
      const checked = await checkRows(strategy.db, input, chunk, problems).catch(async (error) => {
        // A failed write fails the rest of a transaction: its error is the one to report.
        await staging;
        throw error;
      });
      if (checked.rows.rowNumbers.length === 0) continue;
      // Made while the previous chunk is still being staged: once the connection is free, the
      // COPY only has to send it.
      const data = strategy.copyData(checked.rows);
      await staging;
      staging = strategy.stage(data, checked.ruleBreaking, problems.length > 0).then(found);
      // Handled when awaited; this keeps a failure while reading on from going unhandled.
      staging.catch(() => undefined);
    }
  } catch (error) {
    // A write still running must end before the caller rolls its transaction back.
    await staging.catch(() => undefined);
    throw error;
  }
  await staging;
  if (problems.length > 0)
    throw problemRowsRejected([...problems, ...(await strategy.moreProblems())]);
  return rows;
}

/** A failure the database reports as the answer an ingest gives for it; others as they are. */
function asRefusal(error: unknown): unknown {
  if (error instanceof ConcurrentChangeError)
    return new IngestRejected(409, `${error.message}; nothing was changed. Please try again.`);
  const tooLong = indexEntryTooLong(error);
  if (tooLong) return new IngestRejected(422, tooLong);
  if (isDeadlock(error))
    return new IngestRejected(
      409,
      "Another change to the same records ran at the same time; nothing was changed. Please try again.",
    );
  return error;
}
