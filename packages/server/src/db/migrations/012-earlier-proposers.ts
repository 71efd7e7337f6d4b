import { type Kysely, sql } from "kysely";

/**
 * Who else proposed a pending change: an edit of a record with a pending change amends that event
 * and becomes its author, and the earlier authors are kept here, so none of them can approve the
 * change they took part in (four eyes). Null: the author is the only one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table app.events add column earlier_proposers text[]`.execute(db);
}
