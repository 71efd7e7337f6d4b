import type { Db } from "../db/connection.ts";
import { anyId } from "../db/id-array.ts";
import type { ColumnProfile } from "./sources/catalog.ts";

// 12 values a row: 2,000 rows stay well under PostgreSQL's 65,535 parameters a statement.
const ROWS_A_STATEMENT = 2_000;

/** Stores the profiles an import run took, part of its record. */
export async function saveProfiles(
  db: Db,
  runId: number,
  profiles: readonly ColumnProfile[],
): Promise<void> {
  for (let i = 0; i < profiles.length; i += ROWS_A_STATEMENT)
    await db
      .insertInto("app.column_profiles")
      .values(
        profiles.slice(i, i + ROWS_A_STATEMENT).map((p) => ({
          run_id: runId,
          schema_name: p.schema,
          object_name: p.object,
          column_name: p.column,
          method: p.method,
          row_count: p.rowCount,
          null_share: p.nullShare,
          distinct_count: p.distinctCount,
          min_value: p.minValue,
          max_value: p.maxValue,
          avg_length: p.avgLength,
          top_values: p.topValues === null ? null : JSON.stringify(p.topValues),
        })),
      )
      .execute();
}

/** A stored profile with its source and when its run finished. */
export interface StoredProfile extends ColumnProfile {
  sourceId: number;
  takenAt: Date;
}

/**
 * The profiles of each source's latest succeeded run that took any; with `of`, only that data
 * object's (schema and name in the source).
 */
export async function latestProfiles(
  db: Db,
  sourceIds: readonly number[],
  of?: { schema: string; name: string },
): Promise<StoredProfile[]> {
  if (sourceIds.length === 0) return [];
  let query = db
    .with("latest", (q) =>
      q
        .selectFrom("app.import_runs as r")
        .distinctOn("r.metadata_source_id")
        .select(["r.run_id", "r.metadata_source_id", "r.finished_at"])
        .where("r.metadata_source_id", "=", anyId(sourceIds))
        .where("r.outcome", "=", "succeeded")
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom("app.column_profiles as e")
              .select("e.run_id")
              .whereRef("e.run_id", "=", "r.run_id"),
          ),
        )
        .orderBy("r.metadata_source_id")
        .orderBy("r.run_id", "desc"),
    )
    .selectFrom("latest")
    .innerJoin("app.column_profiles as p", "p.run_id", "latest.run_id")
    .selectAll("p")
    .select(["latest.metadata_source_id", "latest.finished_at"]);
  if (of) query = query.where("p.schema_name", "=", of.schema).where("p.object_name", "=", of.name);
  const rows = await query.execute();
  return rows.map((r) => ({
    sourceId: Number(r.metadata_source_id),
    takenAt: r.finished_at as Date,
    schema: r.schema_name,
    object: r.object_name,
    column: r.column_name,
    method: r.method,
    rowCount: r.row_count === null ? null : Number(r.row_count),
    nullShare: r.null_share,
    distinctCount: r.distinct_count === null ? null : Number(r.distinct_count),
    minValue: r.min_value,
    maxValue: r.max_value,
    avgLength: r.avg_length,
    topValues: r.top_values,
  }));
}
