import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { identityAttributes } from "../model/model.ts";
import { entityTable } from "../records/entity-table.ts";

/** Where a reader stands: the commit of the last change it read, and that change's event. */
export interface FeedPosition {
  position: number;
  eventId: number;
}

/** An approved event as the feed reads it, in feed order. */
export interface FeedRow {
  position: number;
  context: string;
  event_id: number;
  entity_type: string;
  entity_key_id: number;
  action: string;
  old_values: Record<string, unknown> | null;
  new_values: Record<string, unknown> | null;
  source: string;
  created_by: string;
  decided_by: string | null;
  decided_at: Date;
  /** For an update: whether the record was discontinued before it (the change restores it). */
  restores: boolean;
}

/** Which approved events a reading takes: of some types of one context, or every one. */
export type FeedScope = { context: ContextModel; types: readonly string[] } | "everything";

/**
 * The approved events in `scope` after `after`, in the order their transactions committed
 * (app.feed_commits, numbered at each commit: db/migrations/015-change-feed.ts), then by event
 * id, at most `limit`. Only committed positions exist, and none is ever numbered below one a
 * reader has seen: a reader following the cursor misses nothing and reads nothing twice.
 */
export async function feedRows(
  db: Db,
  scope: FeedScope,
  after: FeedPosition,
  limit: number,
): Promise<FeedRow[]> {
  const within =
    scope === "everything"
      ? sql`true`
      : sql`e.context = ${scope.context.name} and e.entity_type = any(${[...scope.types]}::text[])`;
  // Each commit's events are read through events_feed_idx from the cursor on, at most `limit` of
  // them: a page inside a commit of 100,000 changes reads its own rows, not the whole commit's.
  // Ordered as that index is (approved_xid first, one value here): ordered by event_id alone, the
  // planner would walk the primary key from the cursor and filter out every other commit's events.
  const { rows } = await sql<FeedRow>`
    select c.position::float8 as position, e.context, e.event_id::float8 as event_id, e.entity_type,
      e.entity_key_id::float8 as entity_key_id, e.action, e.old_values, e.new_values, e.source,
      e.created_by, e.decided_by, e.decided_at,
      e.action in ('Change', 'Update', 'Amend') and coalesce((
        select p.action in ('Missing', 'Delete') from app.events p
        where p.context = e.context and p.entity_type = e.entity_type
          and p.entity_key_id = e.entity_key_id and p.event_id < e.event_id and p.status = 'approved'
        order by p.event_id desc limit 1), false) as restores
    from (select position, xid from app.feed_commits where position >= ${after.position}) c
      cross join lateral (
        select * from app.events e
        where e.approved_xid = c.xid and e.status = 'approved'
          and e.event_id > case when c.position = ${after.position} then ${after.eventId}::bigint else 0 end
          and ${within}
        order by e.approved_xid, e.event_id limit ${limit}) e
    order by c.position, e.event_id
    limit ${limit}`.execute(db);
  return rows;
}

/**
 * Whether the position is one the feed gave: an approved event of the context in that commit, or
 * the commit's start (event 0: a webhook's link to the changes of one commit).
 */
export async function positionExists(
  db: Db,
  context: ContextModel,
  at: FeedPosition,
): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from app.feed_commits c
      join app.events e on e.approved_xid = c.xid and e.status = 'approved'
      where c.position = ${at.position} and (e.event_id = ${at.eventId} or ${at.eventId}::bigint = 0)
        and e.context = ${context.name}) as found`.execute(db);
  return rows[0].found;
}

/** The identity values of the type's records `keyIds`, by key id: one statement for a page. */
export async function recordKeys(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keyIds: readonly number[],
): Promise<Map<number, Record<string, unknown>>> {
  const identity = identityAttributes(type);
  const { rows } = await sql<Record<string, unknown> & { entity_key_id: number }>`
    select t.entity_key_id::float8 as entity_key_id, ${sql.join(identity.map((a) => sql`t.${sql.id(a.name)}`))}
    from ${entityTable(context, type)} t where t.entity_key_id = any(${[...keyIds]}::bigint[])`.execute(
    db,
  );
  return new Map(
    rows.map(({ entity_key_id, ...key }) => [
      Number(entity_key_id),
      key as Record<string, unknown>,
    ]),
  );
}

/** One approving commit's changes of one type and action, counted (the webhooks' summary). */
export interface CommitSummaryRow {
  position: number;
  committed_at: Date;
  context: string;
  entity_type: string;
  action: "create" | "update" | "discontinue";
  changes: number;
  last_event: number;
  sources: string[];
  approvers: string[];
}

/** The position of the `count`th commit after `after`, or of the last one before it; undefined: none. */
export async function commitsAhead(
  db: Db,
  after: number,
  count: number,
): Promise<number | undefined> {
  const { rows } = await sql<{ last: number | null }>`
    select max(position)::float8 as last from (select position from app.feed_commits
      where position > ${after} order by position limit ${count}) c`.execute(db);
  return rows[0].last ?? undefined;
}

/** The changes of the commits after `after` up to `upTo`, counted per commit, context, type and action. */
export async function commitSummaries(
  db: Db,
  after: number,
  upTo: number,
): Promise<CommitSummaryRow[]> {
  const { rows } = await sql<CommitSummaryRow>`
    select c.position::float8 as position, c.committed_at, e.context, e.entity_type,
      case when e.action in ('Add', 'Create') then 'create'
           when e.action in ('Missing', 'Delete') then 'discontinue' else 'update' end as action,
      count(*)::int as changes, max(e.event_id)::float8 as last_event,
      array_agg(distinct e.source) as sources,
      array_agg(distinct coalesce(e.decided_by, e.created_by)) as approvers
    from app.feed_commits c
      join app.events e on e.approved_xid = c.xid and e.status = 'approved'
    where c.position > ${after} and c.position <= ${upTo}
    group by 1, 2, 3, 4, 5
    order by 1, 3, 4, 5`.execute(db);
  return rows;
}
