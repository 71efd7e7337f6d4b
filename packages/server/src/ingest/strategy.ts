import type { Db } from "../db/connection.ts";
import type { CopyData } from "../db/copy-text.ts";
import type { DiffCounts, IngestResult } from "./ingest-input.ts";
import type { ProblemRow, ResolvedChunk, RuleBreakingRow } from "./rows.ts";

/**
 * A way of writing an ingest's rows: the stages that differ between a first load, a diff while
 * reading and a staged diff (see ingest.service.ts, which chooses one and calls these in order).
 */
export interface Strategy {
  /** The connection stages 1 to 3 run on: the transaction open while the file is read, or the database. */
  readonly db: Db;
  /** Stage 3: a chunk's COPY data, made while the previous chunk is still being staged. */
  copyData(rows: ResolvedChunk): CopyData;
  /**
   * Stage 3: stages a chunk, one at a time, in file order; `ruleBreaking` are its rows that break a
   * rule alone. Answers those of them that the change they make is refused for, which fail the
   * ingest (rule-breaking.ts). `refusing`: a row
   * failed already, so the ingest will be refused; what is staged now only serves to find the
   * problems of the rows still to come.
   */
  stage(
    data: CopyData,
    ruleBreaking: readonly RuleBreakingRow[],
    refusing: boolean,
  ): Promise<readonly ProblemRow[]>;
  /** For a refusal of rows at fault: the problems the staged rows show beside theirs (unique rules', rules judged on the diff). */
  moreProblems(): Promise<readonly ProblemRow[]>;
  /** Stage 2 on the whole file, once it is staged: refuses it when a natural key repeats. */
  checkKeys(): Promise<void>;
  /** Runs stages 4 to 6 in the transaction that writes: the one open since the start, or a short one of its own. */
  inTransaction<T>(work: (tx: Db) => Promise<T>): Promise<T>;
  /** Stage 4: the staged rows' changes to the records, counted. */
  classify(tx: Db, rows: number): Promise<DiffCounts>;
  /** Stage 5: refuses the changes as a whole (rules judged on the change, rights, mass deletion, uniqueness). */
  guard(tx: Db, counts: DiffCounts): Promise<void>;
  /** Stage 6: writes what is left to write of the changes, as events and records. */
  write(tx: Db, counts: DiffCounts, rows: number): Promise<IngestResult>;
  /** Drops what was staged; `failed`: the ingest failed. */
  close(failed: boolean): Promise<void>;
}
