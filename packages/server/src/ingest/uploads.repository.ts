import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { labelSql } from "../records/label-sql.ts";

export async function insertUpload(
  db: Db,
  upload: {
    context: string;
    entityType: string;
    layout: string;
    fileName: string;
    dryRun: boolean;
    user: string;
  },
): Promise<number> {
  const row = await db
    .insertInto("app.uploads")
    .values({
      context: upload.context,
      entity_type: upload.entityType,
      layout: upload.layout,
      file_name: upload.fileName,
      dry_run: upload.dryRun,
      created_by: upload.user,
    })
    .returning("upload_id")
    .executeTakeFirstOrThrow();
  return row.upload_id;
}

export async function finishUpload(
  db: Db,
  uploadId: number,
  outcome: { succeeded: boolean; message: string; counts?: Record<string, number> },
): Promise<void> {
  await db
    .updateTable("app.uploads")
    .set({
      outcome: outcome.succeeded ? "succeeded" : "failed",
      message: outcome.message,
      counts: outcome.counts ? JSON.stringify(outcome.counts) : null,
      finished_at: new Date(),
    })
    .where("upload_id", "=", uploadId)
    .execute();
}

export interface PendingChangeSetRow {
  kind: "upload" | "import";
  id: number;
  name: string;
  created_by: string;
  created_at: Date;
  pending: number;
  counts: Record<string, number>;
}

/**
 * The uploads (and, given the metadata source type, the metadata sources whose imports) with
 * pending events of one type, newest first, counted per kind in one grouped pass over the pending
 * events. An import change set is dated and signed by its newest pending event (looked up by id:
 * an ordered aggregate would sort every pending event).
 */
export async function pendingChangeSets(
  db: Db,
  context: ContextModel,
  entityType: string,
  metadataSource?: EntityType,
): Promise<PendingChangeSetRow[]> {
  const sources = metadataSource
    ? sql`(source like 'upload:%' or source like 'import:%')`
    : sql`source like 'upload:%'`;
  const importJoin = metadataSource
    ? sql`left join ${sql.table(`${context.schema}.${viewNameOf(metadataSource.name)}`)} as m
        on s.kind = 'import' and m.entity_key_id = s.id`
    : sql``;
  const importName = metadataSource ? labelSql(metadataSource, "m") : sql`null::text`;
  const importFound = metadataSource ? sql`m.entity_key_id is not null` : sql`false`;
  const { rows } = await sql<PendingChangeSetRow>`
    with per_action as (
      select source, action, count(*)::int as n, max(created_at) as last_at,
        max(event_id) as last_event
      from app.events
      where context = ${context.name} and entity_type = ${entityType} and status = 'pending'
        and ${sources}
      group by source, action
    ), s as (
      select source, split_part(source, ':', 1) as kind, split_part(source, ':', 2)::bigint as id,
        sum(n)::int as pending, jsonb_object_agg(action, n) as counts, max(last_at) as last_at,
        max(last_event) as last_event
      from per_action
      group by source
    )
    select s.kind, s.id, coalesce(u.file_name, ${importName}) as name,
      coalesce(u.created_by, (select e.created_by from app.events e where e.event_id = s.last_event))
        as created_by,
      coalesce(u.created_at, s.last_at) as created_at, s.pending, s.counts
    from s
    left join app.uploads u on s.kind = 'upload' and u.upload_id = s.id
    ${importJoin}
    where u.upload_id is not null or ${importFound}
    order by created_at desc, s.kind desc, s.id desc`.execute(db);
  return rows;
}
