import { type Kysely, sql } from "kysely";

/** Fixed-window counters of expensive calls, shared by every server instance. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.rate_limits (
    key text not null,
    window_start timestamptz not null,
    hits integer not null,
    primary key (key, window_start)
  )`.execute(db);
}
