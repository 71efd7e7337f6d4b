import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

// A run whose heartbeat is older than this is taken as crashed, so a dead server never blocks publishing.
const STALE_AFTER = "2 minutes";
const LOCK_KEY = 4_211_003;

/** Starts a run unless one is going (on any instance); answers its id, or undefined when busy. */
export async function tryStartRun(
  db: Db,
  run: { user: string; target: string },
): Promise<number | undefined> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${LOCK_KEY})`.execute(tx);
    if (await isBusy(tx)) return undefined;
    const row = await tx
      .insertInto("app.publish_runs")
      .values({ started_by: run.user, target: run.target })
      .returning("run_id")
      .executeTakeFirstOrThrow();
    return row.run_id;
  });
}

export async function isBusy(db: Db): Promise<boolean> {
  const { rows } = await sql<{ busy: boolean }>`
    select exists (select 1 from app.publish_runs where outcome = 'running'
      and heartbeat_at > now() - ${STALE_AFTER}::interval) as busy`.execute(db);
  return rows[0].busy;
}

export async function heartbeat(db: Db, runId: number): Promise<void> {
  await db
    .updateTable("app.publish_runs")
    .set({ heartbeat_at: new Date() })
    .where("run_id", "=", runId)
    .execute();
}

export async function finishRun(
  db: Db,
  runId: number,
  outcome: {
    succeeded: boolean;
    message: string;
    written?: number;
    unchanged?: number;
    removed?: number;
  },
): Promise<void> {
  await db
    .updateTable("app.publish_runs")
    .set({
      outcome: outcome.succeeded ? "succeeded" : "failed",
      message: outcome.message,
      finished_at: new Date(),
      pages_written: outcome.written ?? null,
      pages_unchanged: outcome.unchanged ?? null,
      pages_removed: outcome.removed ?? null,
    })
    .where("run_id", "=", runId)
    .execute();
}

export const PUBLISH_CHANNEL = "ledgerline_publish";

/** Tells every server instance (LISTEN/NOTIFY) that the busy state changed. */
export async function notifyPublishState(db: Db, busy: boolean): Promise<void> {
  await sql`select pg_notify(${PUBLISH_CHANNEL}, ${JSON.stringify({ busy })})`.execute(db);
}
