import { sql } from "kysely";
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

export async function typeCount(db: Db, context: string, entityType: string): Promise<number> {
  const row = await db
    .selectFrom("app.type_counts")
    .select("row_count")
    .where("context", "=", context)
    .where("entity_type", "=", entityType)
    .executeTakeFirst();
  return row ? Number(row.row_count) : 0;
}
