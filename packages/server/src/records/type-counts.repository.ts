import { CompiledQuery, sql } from "kysely";
import type { Db } from "../db/connection.ts";

/**
 * Adjusts the exact number of visible (approved, not discontinued) records of a type. Called in the
 * same transaction as the write, so an unfiltered querySize never scans the table.
 */
export async function adjustTypeCount(
  db: Db,
  context: string,
  entityType: string,
  delta: number,
): Promise<void> {
  if (delta === 0) return;
  await db
    .insertInto("app.type_counts")
    .values({ context, entity_type: entityType, row_count: delta })
    .onConflict((oc) =>
      oc
        .columns(["context", "entity_type"])
        .doUpdateSet({ row_count: sql<number>`app.type_counts.row_count + ${delta}` }),
    )
    .execute();
}

// Every unfiltered list reads it; its text is made once, so no call pays for building it.
const TYPE_COUNT = "select row_count from app.type_counts where context = $1 and entity_type = $2";

export async function typeCount(db: Db, context: string, entityType: string): Promise<number> {
  const { rows } = await db.executeQuery<{ row_count: number }>(
    CompiledQuery.raw(TYPE_COUNT, [context, entityType]),
  );
  return rows[0] ? Number(rows[0].row_count) : 0;
}
