import { sql } from "kysely";
import type { Db } from "./db/connection.ts";

const REASON = "interrupted: the server stopped before it finished; nothing of it was applied";

/**
 * At start, closes the records of uploads, imports and publishes that a crash left 'running' (their
 * writes were rolled back with their transaction). Another instance may be running one right now,
 * so only runs older than the longest a run may take (an upload's one-hour limit) are closed;
 * publishes, which keep a heartbeat, as soon as it stops.
 */
export async function closeInterruptedRuns(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    with uploads as (
      update app.uploads set outcome = 'failed', message = ${REASON}, finished_at = now()
      where outcome = 'running' and created_at < now() - interval '1 hour' returning 1
    ), imports as (
      update app.import_runs set outcome = 'failed', message = ${REASON}, finished_at = now()
      where outcome = 'running' and started_at < now() - interval '1 hour' returning 1
    ), publishes as (
      update app.publish_runs set outcome = 'failed', message = ${REASON}, finished_at = now()
      where outcome = 'running' and heartbeat_at < now() - interval '2 minutes' returning 1
    )
    select (select count(*) from uploads)::int + (select count(*) from imports)::int
         + (select count(*) from publishes)::int as n`.execute(db);
  return rows[0].n;
}
