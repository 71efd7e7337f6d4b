import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { lockTypeShared } from "../ingest/ingest-lock.repository.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { entityTable } from "../records/entity-table.ts";
import { liveReferrersSql, referrersOf } from "../records/referrers.ts";
import { proposedBy } from "./events.repository.ts";

/** Which pending events to decide on: explicit ids, or every pending event of one upload. */
export type EventSelection = { entityEventIds: number[] } | { uploadId: number };

/**
 * What approving a selected event would do, judged against its record when it was selected:
 * write a proposed new record, change or discontinue a record, or nothing, as a conflict (the
 * record is gone, changed since the event was proposed, or, to be discontinued, still referred to
 * by live records, which a deletion from the web refuses too).
 */
export type Outcome = "create" | "change" | "remove" | "gone" | "changed" | "referenced";

export const CONFLICTS: readonly Outcome[] = ["gone", "changed", "referenced"];

const REASONS: Record<string, string> = {
  gone: "the record no longer exists",
  changed: "the record changed since this change was proposed",
  referenced: "other records still refer to it",
};

/**
 * The temporary table of the transaction's selected events (`event_id`, `entity_key_id`,
 * `action`, `created_by`, `earlier_proposers`, `outcome`, `was_deleted`: whether the record was discontinued; these
 * two null when the selection was not judged). The statements of a decision join it to
 * app.events and the type's table, so no list of ids goes back and forth however many events are
 * selected.
 */
export const SELECTED = sql.table("selected_events");

/** The selected events whose outcome is one of these, as a SQL condition on `alias`. */
export function outcomeIn(alias: string, outcomes: readonly Outcome[]) {
  if (outcomes.length === 0) return sql<boolean>`false`;
  return sql<boolean>`${sql.ref(`${alias}.outcome`)} in (${sql.join(outcomes)})`;
}

/** How many selected events there are, by outcome, and what approving them does to the count. */
export interface SelectedSummary {
  selected: number;
  /** Of them, proposed by this user (as their author, or an author an Amend took over from). */
  own: number;
  // What approving them does, by outcome: all 0 when the selection was not judged.
  create: number;
  change: number;
  remove: number;
  /** Changes of discontinued records, which approving brings back. */
  revived: number;
  /** Removals of records not discontinued yet. */
  removed: number;
  conflicts: number;
  /** The lowest and the highest selected event id (0 when none is selected). */
  first: number;
  last: number;
}

/**
 * A condition on `e` (app.events): its event id lies within the selection's. Joined with SELECTED
 * alone, the planner reads all of app.events (a hash join) to find 1,000,000 events; given the
 * range it reads the selection's part by the primary key, as an upload's events were written
 * together.
 */
export function withinSelection(summary: SelectedSummary) {
  return sql<boolean>`e.event_id between ${summary.first} and ${summary.last}`;
}

/**
 * The columns `outcome` and `was_deleted` of SELECTED for events `e` of the type's table `t`:
 * each event judged against its record (Outcome), and whether the record was discontinued.
 */
function judgedAgainst(t: ReturnType<typeof entityTable>) {
  return {
    columns: sql`case when t.entity_key_id is null then 'gone'
        when e.action in ('Create', 'Add') and t.is_pending_new then 'create'
        when e.base_version is not null and e.base_version <> t.version then 'changed'
        when e.action in ('Delete', 'Missing') then 'remove'
        else 'change' end,
      coalesce(t.is_deleted, false)`,
    join: sql`left join ${t} t on t.entity_key_id = e.entity_key_id`,
  };
}

const NOT_JUDGED = { columns: sql`null::text, null::boolean`, join: sql`` };

/**
 * Selects the pending events of a type matching the selection into SELECTED (dropped at commit).
 * With `judge`, each is judged against its record (Outcome), which only an approval needs: a
 * rejection decides every selected event alike, and without the join with the records it does not
 * read the type's table (about 8 s of a 1,000,000-event rejection). First waits until no ingest
 * of the type is under way (lockTypeShared), then takes the type's table against writes until the transaction ends (reads
 * go on): every writer of a record or of its pending events locks the record first, so nothing
 * changes the selected events or their records meanwhile, and two decisions on a type follow each
 * other (the second no longer finds the first one's events pending). One table lock instead of a
 * row lock per event and per record, which cost a write of every page of both for a large upload.
 */
export async function selectPendingEvents(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  selection: EventSelection,
  user: string,
  { judge }: { judge: boolean },
): Promise<SelectedSummary> {
  await lockTypeShared(tx, { context, type });
  const t = entityTable(context, type);
  await sql`lock table ${t} in exclusive mode`.execute(tx);
  await sql`create temporary table ${SELECTED} (event_id bigint not null, entity_key_id bigint not null,
    action text not null, created_by text not null, earlier_proposers text[], outcome text,
    was_deleted boolean) on commit drop`.execute(tx);
  const judged = judge ? judgedAgainst(t) : NOT_JUDGED;
  const match =
    "uploadId" in selection
      ? sql`e.source = ${`upload:${selection.uploadId}`}`
      : sql`e.event_id = any(${selection.entityEventIds}::bigint[])`;
  await sql`insert into ${SELECTED}
    select e.event_id, e.entity_key_id, e.action, e.created_by, e.earlier_proposers,
      ${judged.columns}
    from app.events e ${judged.join}
    where e.context = ${context.name} and e.entity_type = ${type.name} and e.status = 'pending'
      and ${match}`.execute(tx);
  await sql`analyze ${SELECTED}`.execute(tx);
  if (judge) await judgeReferencedRemovals(tx, context, type);
  const { rows } = await sql<Record<keyof SelectedSummary, string>>`
    select count(*) as selected,
      count(*) filter (where ${proposedBy(user)}) as own,
      count(*) filter (where outcome = 'create') as create,
      count(*) filter (where outcome = 'change') as change,
      count(*) filter (where outcome = 'remove') as remove,
      count(*) filter (where outcome = 'change' and was_deleted) as revived,
      count(*) filter (where outcome = 'remove' and not was_deleted) as removed,
      count(*) filter (where ${outcomeIn("s", CONFLICTS)}) as conflicts,
      coalesce(min(event_id), 0) as first, coalesce(max(event_id), 0) as last
    from ${SELECTED} s`.execute(tx);
  return Object.fromEntries(
    Object.entries(rows[0]).map(([k, v]) => [k, Number(v)]),
  ) as unknown as SelectedSummary;
}

/**
 * Judges the selected removals of records that live records still refer to as conflicts
 * ('referenced'); records of the type that the selection removes too, or points elsewhere (a
 * tree's children moved away from the parent it discontinues), do not count.
 */
async function judgeReferencedRemovals(
  tx: Db,
  context: ContextModel,
  type: EntityType,
): Promise<void> {
  for (const referrer of referrersOf(context, type)) {
    const besides =
      referrer.type.name === type.name
        ? sql<boolean>`not exists (select 1 from ${SELECTED} r join app.events e on e.event_id = r.event_id
            where r.entity_key_id = o.entity_key_id and (r.outcome = 'remove'
              or (r.outcome = 'change' and e.new_values ? ${referrer.attribute.name}
                and (e.new_values ->> ${referrer.attribute.name}) is distinct from s.entity_key_id::text)))`
        : undefined;
    await sql`update ${SELECTED} s set outcome = 'referenced' where s.outcome = 'remove'
      and exists (${liveReferrersSql(context, referrer, sql`= s.entity_key_id`, besides)})`.execute(
      tx,
    );
  }
}

export interface Conflict {
  entityEventID: number;
  entityKeyID: number;
  reason: string;
}

/** The selected events approving leaves pending, oldest first, with the reason. */
export async function selectedConflicts(tx: Db): Promise<Conflict[]> {
  const { rows } = await sql<{ event_id: string; entity_key_id: string; outcome: string }>`
    select event_id, entity_key_id, outcome from ${SELECTED} s
    where ${outcomeIn("s", CONFLICTS)} order by event_id`.execute(tx);
  return rows.map((r) => ({
    entityEventID: Number(r.event_id),
    entityKeyID: Number(r.entity_key_id),
    reason: REASONS[r.outcome],
  }));
}

/** The selected events' kinds of change (Add, Change, ...). */
export async function selectedActions(tx: Db): Promise<string[]> {
  const { rows } = await sql<{ action: string }>`
    select distinct action from ${SELECTED} order by action`.execute(tx);
  return rows.map((r) => r.action);
}

/** The ids of the selected events, oldest first: for the small selections of a custom action. */
export async function selectedEventIds(tx: Db): Promise<number[]> {
  const { rows } = await sql<{ event_id: string }>`
    select event_id from ${SELECTED} order by event_id`.execute(tx);
  return rows.map((r) => Number(r.event_id));
}

/** Per proposer (an author, or an earlier one) other than `decidedBy`: how many of their selected events were decided, how many not. */
export async function tallyByAuthor(
  tx: Db,
  decidedBy: string,
  notDecided: readonly Outcome[],
): Promise<{ author: string; decided: number; conflicts: number }[]> {
  // An amended change counts for each of its authors, the earlier ones too.
  const { rows } = await sql<{ author: string; decided: string; conflicts: string }>`
    select p.author,
      count(*) filter (where not (${outcomeIn("s", notDecided)})) as decided,
      count(*) filter (where ${outcomeIn("s", notDecided)}) as conflicts
    from ${SELECTED} s
      cross join lateral unnest(array[s.created_by] || coalesce(s.earlier_proposers, '{}')) as p(author)
    where lower(p.author) <> lower(${decidedBy})
    group by p.author order by min(s.event_id)`.execute(tx);
  return rows.map((r) => ({
    author: r.author,
    decided: Number(r.decided),
    conflicts: Number(r.conflicts),
  }));
}
