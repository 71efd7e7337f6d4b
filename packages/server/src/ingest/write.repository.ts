import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { entityTable, identityMatch } from "../records/entity-table.ts";
import { writeWithForeignKeysAfter } from "../records/foreign-key-rebuild.ts";
import { buildInTransaction, writeWithIndexRebuild } from "../records/index-rebuild.ts";
import { inMissingScope, type KindCounts } from "./classify.repository.ts";
import type { IngestInput, MissingScope } from "./ingest-input.ts";
import { diffTable, type Stage, stageTable } from "./stage.repository.ts";

// Stage 6 of the ingest, write: a classified diff as events and records, set-based.

export const writeOptions = ({
  source,
  user,
  apply,
  buildIndexesLater,
}: IngestInput): WriteOptions => ({ source, user, apply, buildIndexesLater });

/** The ingest was overtaken by another write to the same records; the caller rolls back. */
export class ConcurrentChangeError extends Error {}

export interface WriteOptions {
  source: string;
  user: string;
  /** Apply the changes now and keep their events as approved history, instead of leaving them pending. */
  apply: boolean;
  /** Takes the index builds a bulk write leaves for after the commit (writeWithIndexRebuild). */
  buildIndexesLater?: (definitions: string[]) => void;
}

/**
 * Writes the classified rows as events, set-based. New records are inserted with their event
 * ids drawn, and their events written from what the insert returns; the other rows draw their
 * event ids in the diff. Pending: new records are stored as hidden proposals and nothing else
 * changes; a change the same source already proposed, unchanged, keeps its pending event, and one
 * it proposed and was refused is not proposed again. Applied: records are written straight from
 * the diff. Answers the number of events that stand for the rows (new, or kept pending), and by
 * how much the type's count of visible records changes, for the caller to adjust
 * (adjustTypeCount): the counter is one row that every write of the type updates, so a caller that
 * writes several diffs in one long transaction adjusts it once, at its end.
 */
export async function writeEvents(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  options: WriteOptions,
  counts: KindCounts,
): Promise<{ events: number; visibleChange: number }> {
  const s = diffTable(stage);
  const t = entityTable(context, type);
  const { source, user, apply } = options;
  // Statements that would find no row of the diff are left out: a file is written a chunk at a time.
  const others = counts.proposals + counts.changed + counts.missing;
  const proposed = sql`case s._kind when 'Add' then ${valuesOf(stage.attributes, "s")} when 'Change' then s._new_values end`;
  const baseVersion = sql`case when s._kind = 'Add' then null else s._base_version end`;

  if (!apply) {
    // A scheduled import of an unchanged source must not supersede its own pending changes with
    // twins, nor bring back what a steward refused. Each row of the diff looks its record's events
    // up (events_record_idx): the diff is as large as the file's changes, while the type's events
    // grow with every import, and the plan that read them all (chosen on statistics a bulk write
    // had left stale) took 0.4 s to match 1,000 rows against 800,000 events.
    const sameAs = (status: string) => sql`(select s._key_id as key_id, (
        select e.event_id from app.events e
        where e.context = ${context.name} and e.entity_type = ${type.name}
          and e.entity_key_id = s._key_id and e.status = ${status} and e.source = ${source}
          and e.action = s._kind and e.base_version is not distinct from ${baseVersion}
          and e.new_values is not distinct from ${proposed} limit 1) as event_id
      from ${s} s where s._key_id is not null and not s._kept) k`;
    await sql`update ${s} s set _kept = true, _event_id = k.event_id from ${sameAs("pending")}
      where s._key_id = k.key_id and k.event_id is not null`.execute(db);
    await sql`update ${s} s set _kept = true from ${sameAs("rejected")}
      where s._key_id = k.key_id and k.event_id is not null`.execute(db);
  }

  const isNew = sql<boolean>`s._kind = 'Add' and not s._proposal`;
  const events = await eventSequence(db);
  const fresh = counts.added - counts.proposals;
  if (fresh > 0) {
    // Unique ones are built again before the diff goes on (the rest of the ingest looks records up
    // by them); the others now, or after the commit when the caller takes them (buildIndexesLater).
    // The foreign keys to tables the transaction holds alone check the new records at once, after.
    const { indexes } = await writeWithIndexRebuild(
      db,
      context.schema,
      { table: type.name },
      fresh,
      () =>
        writeWithForeignKeysAfter(db, context.schema, type.name, fresh, () =>
          insertNewRecords(db, context, type, stage, { where: isNew, events }, options),
        ),
    );
    if (options.buildIndexesLater) options.buildIndexesLater(indexes);
    else await buildInTransaction(db, indexes);
  }
  if (others === 0) return { events: fresh, visibleChange: apply ? fresh : 0 };
  // Every other row that becomes an event draws its id.
  await sql`update ${s} s set _event_id = nextval(${events})
    where s._event_id is null and not s._kept and not (${isNew})`.execute(db);

  const approved = apply ? sql`, is_pending_new = false, version = t.version + 1` : sql``;
  const reused =
    counts.proposals === 0
      ? 0
      : await affected(
          sql`update ${t} t set ${assignedFromDiff(stage)}, is_deleted = false, updated_at = now(), updated_by = ${user},
        last_event_id = s._event_id ${approved}
      from ${s} s where s._kind = 'Add' and s._proposal and not s._kept and t.entity_key_id = s._key_id
        and t.is_pending_new`.execute(db),
        );

  // A new _proposal for a record replaces the one waiting for it.
  await sql`update app.events set status = 'superseded', decided_by = ${user}, decided_at = now()
    where context = ${context.name} and entity_type = ${type.name} and status = 'pending'
      and entity_key_id in (select _key_id from ${s} where _event_id is not null and not _kept)`.execute(
    db,
  );

  await sql`
    insert into app.events (event_id, context, entity_type, entity_key_id, action, status, decided_by, decided_at,
      old_values, new_values, base_version, source, created_by)
    overriding system value
    select s._event_id, ${context.name}, ${type.name}, s._key_id, s._kind, ${decision(options)},
           case when s._kind = 'Add' then null else s._old_values end, ${proposed}, ${baseVersion},
           ${source}, ${user}
    from ${s} s where s._event_id is not null and not s._kept`.execute(db);
  const visibleChange = apply
    ? await applyStage(db, context, type, stage, user, reused, counts)
    : 0;
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ${s} where _event_id is not null`.execute(db);
  return { events: fresh + rows[0].n, visibleChange };
}

/**
 * Supersedes the pending changes the file contradicts on the records it lists unchanged: a pending
 * Missing or Delete of a record the file still holds, or a change to an attribute the file carries
 * at its approved value. The file is the newer word on them (DESIGN.md §7: an upload that touches
 * a record with a pending event supersedes it); the rows the file changes supersede theirs in
 * writeEvents, and a pending change to attributes the file does not carry stays. Answers how many.
 */
export async function supersedeContradicted(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  user: string,
): Promise<number> {
  const carried = stage.attributes.filter((a) => !a.identity).map((a) => sql`${a.name}::text`);
  const touchesCarried =
    carried.length === 0
      ? sql<boolean>`false`
      : sql<boolean>`e.new_values ?| array[${sql.join(carried)}]`;
  return affected(
    sql`update app.events e set status = 'superseded', decided_by = ${user}, decided_at = now()
      from ${stageTable(stage)} s join ${entityTable(context, type)} t on ${identityMatch(type, "s", "t")}
      where e.context = ${context.name} and e.entity_type = ${type.name} and e.status = 'pending'
        and e.entity_key_id = t.entity_key_id and not t.is_deleted and not t.is_pending_new
        and not exists (select 1 from ${diffTable(stage)} d where d._key_id = t.entity_key_id)
        and (e.action in ('Missing', 'Delete') or ${touchesCarried})`.execute(db),
  );
}

/**
 * Withdraws what a complete file (deleteMissing) no longer holds of the proposals: a record
 * proposed new (by an earlier file or import, or on the web), still waiting, within the Missing
 * scope and absent from `file` (the whole file's rows or keys). Its pending change is superseded
 * and its row discontinued, as a withdrawal in the explorer does: left pending, its approval would
 * add a record the newer file says is gone. Answers how many changes it superseded.
 */
export async function withdrawAbsentProposals(
  db: Db,
  context: ContextModel,
  type: EntityType,
  file: Stage,
  scope: MissingScope | undefined,
  user: string,
): Promise<number> {
  // Found from the waiting changes (events_pending_kind_idx), not by reading the type: a record
  // proposed new waits with its Add or Create (an edit amends it as such); most files find none.
  return affected(
    sql`with withdrawn as (
        update ${entityTable(context, type)} t set is_deleted = true, updated_at = now(), updated_by = ${user}
        from app.events e
        where e.context = ${context.name} and e.entity_type = ${type.name} and e.status = 'pending'
          and e.action in ('Add', 'Create') and t.entity_key_id = e.entity_key_id
          and t.is_pending_new and not t.is_deleted and ${inMissingScope(scope)}
          and not exists (select 1 from ${stageTable(file)} s where ${identityMatch(type, "s", "t")})
        returning t.entity_key_id)
      update app.events e set status = 'superseded', decided_by = ${user}, decided_at = now()
      from withdrawn w
      where e.context = ${context.name} and e.entity_type = ${type.name} and e.status = 'pending'
        and e.entity_key_id = w.entity_key_id`.execute(db),
  );
}

/** Whether any change of the type waits for approval (supersedeContradicted has work only then). */
export async function anyPending(
  db: Db,
  context: ContextModel,
  type: EntityType,
): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    select exists (select 1 from app.events where context = ${context.name}
      and entity_type = ${type.name} and status = 'pending') as found`.execute(db);
  return rows[0].found;
}

/** How the ingest's events are recorded: approved by the uploader now, or left pending. */
export const decision = ({ apply, user }: WriteOptions) =>
  apply ? sql`'approved', ${user}, now()` : sql`'pending', null, null`;

/** Which rows of the diff are new records. */
interface NewRows {
  where: RawBuilder<boolean>;
  /** The event-id sequence (eventSequence). */
  events: RawBuilder<unknown>;
}

/**
 * Inserts new records, each with its event id drawn, and writes their Add events from what the
 * insert returns, in one statement: nothing is matched back to the rows. Answers how many.
 */
async function insertNewRecords(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  rows: NewRows,
  options: WriteOptions,
): Promise<number> {
  const cols = stage.attributes.map((a) => sql.id(a.name));
  const { source, user, apply } = options;
  return affected(
    sql`with ins as (
      insert into ${entityTable(context, type)} (${sql.join(cols)}, is_pending_new, created_by, updated_by, last_event_id)
      select ${sql.join(cols.map((c) => sql`s.${c}`))}, ${!apply}, ${user}, ${user}, nextval(${rows.events})
      from ${diffTable(stage)} s where ${rows.where} order by s._row_no
      returning entity_key_id, last_event_id, ${sql.join(cols)}
    )
    insert into app.events (event_id, context, entity_type, entity_key_id, action, status, decided_by,
      decided_at, new_values, source, created_by)
    overriding system value
    select last_event_id, ${context.name}, ${type.name}, entity_key_id, 'Add', ${decision(options)},
      ${valuesOf(stage.attributes, "ins")}, ${source}, ${user}
    from ins`.execute(db),
  );
}

/**
 * Applies the Change and Missing rows to their records. Each must still be at the version the
 * diff read: a record written meanwhile (a web edit) fails the whole ingest rather than being
 * overwritten. New records were written as applied already. Answers by how much the count of
 * visible records changes.
 */
async function applyStage(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  user: string,
  proposalsApplied: number,
  expected: KindCounts,
): Promise<number> {
  const s = diffTable(stage);
  const t = entityTable(context, type);
  const common = sql`version = t.version + 1, updated_at = now(), updated_by = ${user}, last_event_id = s._event_id`;
  const current = sql`t.entity_key_id = s._key_id and t.version = s._base_version`;
  const removed =
    expected.missing === 0
      ? 0
      : await affected(
          sql`update ${t} t set is_deleted = true, ${common}
      from ${s} s where s._kind = 'Missing' and ${current}`.execute(db),
        );
  const changed =
    expected.changed === 0
      ? 0
      : await affected(
          sql`update ${t} t set ${assignedFromDiff(stage)}, is_deleted = false, ${common}
      from ${s} s where s._kind = 'Change' and ${current}`.execute(db),
        );
  const overtaken =
    expected.proposals - proposalsApplied + expected.changed - changed + expected.missing - removed;
  if (overtaken > 0)
    throw new ConcurrentChangeError(
      `${overtaken === 1 ? "A record was" : `${overtaken} records were`} changed by someone else while the file was processed`,
    );
  return expected.added + expected.revived - expected.missing;
}

/**
 * The sequence of event ids as a regclass literal: a literal is resolved once, where a lookup by
 * name inside the statement would run for every row.
 */
export async function eventSequence(db: Db): Promise<RawBuilder<unknown>> {
  const { rows } = await sql<{ name: string }>`
    select pg_get_serial_sequence('app.events', 'event_id') as name`.execute(db);
  return sql`${sql.lit(rows[0].name)}::regclass`;
}

/** `attribute = s.attribute` for every attribute the file carries: a record takes the diff row's values. */
function assignedFromDiff(stage: Stage): RawBuilder<unknown> {
  return sql.join(stage.attributes.map((a) => sql`${sql.id(a.name)} = s.${sql.id(a.name)}`));
}

/** The attributes of the row `alias` as {name: value} jsonb: the values of an Add. */
export function valuesOf(attributes: readonly Attribute[], alias: string): RawBuilder<unknown> {
  return sql`jsonb_build_object(${sql.join(attributes.map((a) => sql`${a.name}::text, ${sql.ref(`${alias}.${a.name}`)}`))})`;
}

async function affected(query: Promise<{ numAffectedRows?: bigint }>): Promise<number> {
  return Number((await query).numAffectedRows ?? 0n);
}
