import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { identityAttributes, SYSTEM_COLUMNS } from "../model/model.ts";
import { SQL_TYPES } from "../model/sync/ddl.ts";
import { writeWithForeignKeysAfter } from "../records/foreign-key-rebuild.ts";
import { buildInTransaction, writeWithIndexRebuild } from "../records/index-rebuild.ts";
import { diffTable, type Stage, stageTable } from "./stage.repository.ts";

/** Limits Missing to the records whose attribute is one of the values, e.g. the data objects of one metadata source. */
export interface MissingScope {
  attribute: string;
  values: readonly number[];
}

export interface MissingRule {
  deleteMissing: boolean;
  scope?: MissingScope;
}

export interface DiffCounts {
  added: number;
  changed: number;
  unchanged: number;
  missing: number;
  /** Visible records of the type (in scope) before the ingest: the base of the mass-deletion guard. */
  existing: number;
}

/** The ingest was overtaken by another write to the same records; the caller rolls back. */
export class ConcurrentChangeError extends Error {}

export const entityTable = (context: ContextModel, type: EntityType) =>
  sql.table(`${context.schema}.${type.name}`);

/** `left` and `right` (aliases of rows of the type) have the same identity. */
export function identityMatch(type: EntityType, left: string, right: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.join(
    identityAttributes(type).map(
      (a) => sql`${sql.ref(`${left}.${a.name}`)} = ${sql.ref(`${right}.${a.name}`)}`,
    ),
    sql` and `,
  )}`;
}

/** The present non-identity attributes of the staged row `s`, in file order. */
const compared = (stage: Stage) => stage.attributes.filter((a) => !a.identity);

/** Whether some present attribute of the staged row `s` differs from the stored row `t`. */
function differs(stage: Stage): RawBuilder<boolean> {
  const names = compared(stage).map((a) => sql.id(a.name));
  if (names.length === 0) return sql<boolean>`false`;
  const row = (alias: string) => sql.join(names.map((n) => sql`${sql.raw(alias)}.${n}`));
  return sql<boolean>`(${row("s")}) is distinct from (${row("t")})`;
}

/** The changed attributes of a staged row as {name: value} jsonb, compared with the stored row `t`. */
function changedValues(stage: Stage, side: "s" | "t"): RawBuilder<unknown> {
  const parts = compared(stage).map(
    (a) =>
      sql`case when s.${sql.id(a.name)} is distinct from t.${sql.id(a.name)} then jsonb_build_object(${a.name}::text, ${sql.ref(`${side}.${a.name}`)}) else '{}'::jsonb end`,
  );
  return parts.length === 0 ? sql`'{}'::jsonb` : sql.join(parts, sql` || `);
}

function scopeSql(scope: MissingScope | undefined): RawBuilder<boolean> {
  return scope
    ? sql<boolean>`t.${sql.id(scope.attribute)} = any(${[...scope.values]}::bigint[])`
    : sql<boolean>`true`;
}

/** Records an ingest compares against: visible, approved, and within the Missing scope. */
const comparable = (scope: MissingScope | undefined) =>
  sql<boolean>`not t.is_deleted and not t.is_pending_new and ${scopeSql(scope)}`;

/**
 * Classifies every staged row against the stored records by natural key, set-based, into the diff
 * table: Add (new, or a not-yet-approved _proposal), Change (some present attribute differs, or
 * the record was discontinued and reappears) with old and new values of the changed attributes
 * only, and with deleteMissing a Missing row (`_row_no` 0) for every comparable record absent from
 * the file. Unchanged rows are left out (countDiff derives their number).
 */
export async function classifyStage(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  missing: MissingRule,
): Promise<void> {
  await sql`create unlogged table ${diffTable(stage)} as ${classifiedRows(context, type, stage, missing)}`.execute(
    db,
  );
  if (missing.deleteMissing && missing.scope)
    await sql`insert into ${diffTable(stage)} ${missingRows(context, type, stage, missing.scope)}`.execute(
      db,
    );
}

/**
 * The diff of a stage classified again and again, a chunk at a time, as classifyStage does without
 * Missing: one table for all the chunks (`create`), each chunk classified into it once it is
 * emptied (`classify`).
 */
export function chunkDiff(context: ContextModel, type: EntityType, stage: Stage) {
  const rows = classifiedRows(context, type, stage, { deleteMissing: false });
  return {
    create: (db: Db) =>
      sql`create unlogged table ${diffTable(stage)} as ${rows} with no data`.execute(db),
    classify: (db: Db) => sql`insert into ${diffTable(stage)} ${rows}`.execute(db),
  };
}

/** The rows of classifyStage's diff, with the unscoped Missing ones when deleteMissing. */
function classifiedRows(
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  missing: MissingRule,
): RawBuilder<unknown> {
  const t = entityTable(context, type);
  const inFile = sql`s._row_no is not null`;
  const change = sql`not t.is_pending_new and (t.is_deleted or ${differs(stage)})`;
  const kind = sql`case when not ${inFile} then 'Missing'
    when t.entity_key_id is null or t.is_pending_new then 'Add'
    when ${change} then 'Change' else 'Unchanged' end`;
  // Without a scope every comparable record may be Missing, so one full join finds matches and
  // absences in a single pass over the table; a scope (one metadata source's objects) is read on
  // its own by an anti-join instead, so the rest of the table is not. The diff is written in the
  // file's order, so new records get their keys, and all rows their events, in that order.
  const wholeTable = missing.deleteMissing && !missing.scope;
  return sql`select coalesce(s._row_no, 0) as _row_no, t.entity_key_id as _key_id, ${kind} as _kind,
      null::bigint as _event_id, t.version as _base_version,
      coalesce(t.is_deleted, false) as _was_deleted, coalesce(t.is_pending_new, false) as _proposal,
      false as _kept,
      case when not ${inFile} then ${storedValues("t")}
           when ${change} then ${changedValues(stage, "t")} end as _old_values,
      case when ${inFile} and ${change} then ${changedValues(stage, "s")} end as _new_values,
      ${sql.join(stage.attributes.map((a) => sql`s.${sql.id(a.name)}`))}
    from ${stageTable(stage)} s ${wholeTable ? sql`full join` : sql`left join`} ${t} t
      on ${identityMatch(type, "s", "t")}
    where (${inFile} or ${wholeTable ? comparable(undefined) : sql`false`})
      and ${kind} <> 'Unchanged'
    order by 1`;
}

/**
 * Classifies, into a diff table of their own, the comparable records (within `scope`) absent from
 * the whole staged file: its Missing rows, once its other rows were classified chunk by chunk.
 */
export async function classifyMissing(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  scope: MissingScope | undefined,
): Promise<void> {
  await sql`create unlogged table ${diffTable(stage)} as ${missingRows(context, type, stage, scope)}`.execute(
    db,
  );
}

/** The diff's rows (its columns in classifyStage's order) for the records absent from the file. */
function missingRows(
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  scope: MissingScope | undefined,
): RawBuilder<unknown> {
  const absent = stage.attributes.map(
    (a) => sql`null::${sql.raw(SQL_TYPES[a.dataType])} as ${sql.id(a.name)}`,
  );
  return sql`select 0 as _row_no, t.entity_key_id as _key_id, 'Missing' as _kind,
      null::bigint as _event_id, t.version as _base_version, false as _was_deleted,
      false as _proposal, false as _kept, ${storedValues("t")} as _old_values,
      null::jsonb as _new_values, ${sql.join(absent)}
    from ${entityTable(context, type)} t where ${comparable(scope)}
      and not exists (select 1 from ${stageTable(stage)} s where ${identityMatch(type, "s", "t")})`;
}

/** A stored record's attributes as {name: value} jsonb (its system columns left out). */
function storedValues(alias: string): RawBuilder<unknown> {
  const hidden = sql.raw(`array[${SYSTEM_COLUMNS.map((c) => `'${c}'`).join(",")}]`);
  return sql`to_jsonb(${sql.raw(alias)}) - ${hidden}`;
}

/** Counts the classification, and the comparable records before the ingest. */
export async function countDiff(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  scope: MissingScope | undefined,
  staged: number,
): Promise<DiffCounts> {
  const { proposals: _p, revived: _r, ...counts } = await kindCounts(db, stage);
  const unchanged = staged - counts.added - counts.changed;
  return { ...counts, unchanged, existing: await comparableCount(db, context, type, scope) };
}

/** How many records an ingest compares against (within `scope`): the base of the mass-deletion guard. */
export async function comparableCount(
  db: Db,
  context: ContextModel,
  type: EntityType,
  scope: MissingScope | undefined,
): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from ${entityTable(context, type)} t where ${comparable(scope)}`.execute(
    db,
  );
  return rows[0].n;
}

export type KindCounts = Omit<DiffCounts, "existing" | "unchanged"> & {
  proposals: number;
  revived: number;
};

/** The diff's rows per kind, with the Adds that reuse a proposal and the Changes that revive a record. */
export async function kindCounts(db: Db, stage: Stage): Promise<KindCounts> {
  const { rows } = await sql<KindCounts>`
    select count(*) filter (where _kind = 'Add')::int as added,
           count(*) filter (where _kind = 'Add' and _proposal)::int as proposals,
           count(*) filter (where _kind = 'Change')::int as changed,
           count(*) filter (where _kind = 'Change' and _was_deleted)::int as revived,
           count(*) filter (where _kind = 'Missing')::int as missing
    from ${diffTable(stage)}`.execute(db);
  return rows[0];
}

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
  kinds?: KindCounts,
): Promise<{ events: number; visibleChange: number }> {
  const s = diffTable(stage);
  const t = entityTable(context, type);
  const { source, user, apply } = options;
  // Statements that would find no row of the diff are left out: a file is written a chunk at a time.
  const counts = kinds ?? (await kindCounts(db, stage));
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
  const carried = compared(stage).map((a) => sql`${a.name}::text`);
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
