import type { Db } from "../db/connection.ts";
import { anyId } from "../db/id-array.ts";

export async function startRun(
  db: Db,
  run: { sourceId: number; trigger: "manual" | "schedule"; user: string },
): Promise<number> {
  const row = await db
    .insertInto("app.import_runs")
    .values({ metadata_source_id: run.sourceId, trigger: run.trigger, started_by: run.user })
    .returning("run_id")
    .executeTakeFirstOrThrow();
  return row.run_id;
}

export async function finishRun(
  db: Db,
  runId: number,
  outcome: { succeeded: boolean; message: string; counts?: Record<string, number> },
): Promise<void> {
  await db
    .updateTable("app.import_runs")
    .set({
      outcome: outcome.succeeded ? "succeeded" : "failed",
      message: outcome.message,
      counts: outcome.counts ? JSON.stringify(outcome.counts) : null,
      finished_at: new Date(),
    })
    .where("run_id", "=", runId)
    .execute();
}

export interface LastRun {
  metadata_source_id: number;
  started_at: Date;
  finished_at: Date | null;
  outcome: string;
  message: string | null;
}

/** The latest run of each of these sources. */
export async function lastRuns(db: Db, sourceIds: readonly number[]): Promise<LastRun[]> {
  if (sourceIds.length === 0) return [];
  return db
    .selectFrom("app.import_runs")
    .distinctOn("metadata_source_id")
    .select(["metadata_source_id", "started_at", "finished_at", "outcome", "message"])
    .where("metadata_source_id", "=", anyId(sourceIds))
    .orderBy("metadata_source_id")
    .orderBy("run_id", "desc")
    .execute();
}

/** Claims one scheduled run; answers true for exactly one caller across every server instance. */
export async function claimScheduledRun(
  db: Db,
  sourceId: number,
  scheduledFor: Date,
  instance: string,
): Promise<boolean> {
  const result = await db
    .insertInto("app.schedule_claims")
    .values({ metadata_source_id: sourceId, scheduled_for: scheduledFor, claimed_by: instance })
    .onConflict((oc) => oc.columns(["metadata_source_id", "scheduled_for"]).doNothing())
    .returning("metadata_source_id")
    .executeTakeFirst();
  return result !== undefined;
}
