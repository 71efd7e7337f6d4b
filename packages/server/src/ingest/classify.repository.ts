import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { SYSTEM_COLUMNS } from "../model/model.ts";
import { SQL_TYPES } from "../model/sync/ddl.ts";
import { entityTable, identityMatch } from "../records/entity-table.ts";
import type { DiffCounts, MissingScope } from "./ingest-input.ts";
import { diffTable, type Stage, stageTable } from "./stage.repository.ts";

// Stage 4 of the ingest, classify: the staged rows against the stored records by natural key,
// set-based, into the stage's diff table (Add, Change, Missing; Unchanged rows are counted, not kept).

export interface MissingRule {
  deleteMissing: boolean;
  scope?: MissingScope;
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

/** Whether the stored row `t` lies within the Missing scope (every row without one). */
export function inMissingScope(scope: MissingScope | undefined): RawBuilder<boolean> {
  return scope
    ? sql<boolean>`t.${sql.id(scope.attribute)} = any(${[...scope.values]}::bigint[])`
    : sql<boolean>`true`;
}

/** Records an ingest compares against: visible, approved, and within the Missing scope. */
const comparable = (scope: MissingScope | undefined) =>
  sql<boolean>`not t.is_deleted and not t.is_pending_new and ${inMissingScope(scope)}`;

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
