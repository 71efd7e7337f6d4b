import { type Kysely, sql } from "kysely";

/**
 * Column profiles taken by a metadata import (issue 46): part of its run, one row per column of
 * the source, read from the source's statistics or a bounded sample. A sensitive column's row
 * holds no value of it, only that it is sensitive.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.column_profiles (
    run_id bigint not null references app.import_runs (run_id),
    schema_name text not null,
    object_name text not null,
    column_name text not null,
    method text not null check (method in ('statistics', 'sample', 'sensitive', 'none')),
    row_count bigint,
    null_share double precision,
    distinct_count bigint,
    min_value text,
    max_value text,
    avg_length double precision,
    top_values jsonb,
    primary key (run_id, schema_name, object_name, column_name)
  )`.execute(db);
}
