import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { identityAttributes, SYSTEM_COLUMNS } from "../model/model.ts";
import { type Stage, stageTable } from "./stage.repository.ts";

/** Limits Missing to the records whose attribute is one of the values, e.g. the data objects of one metadata source. */
export interface MissingScope {
  attribute: string;
  values: readonly number[];
}

export interface DiffCounts {
  added: number;
  changed: number;
  unchanged: number;
  missing: number;
  /** Visible records of the type (in scope) before the ingest: the base of the mass-deletion guard. */
  existing: number;
}

const entityTable = (context: ContextModel, type: EntityType) =>
  sql.table(`${context.schema}.${type.name}`);

function identityMatch(type: EntityType, left: string, right: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.join(
    identityAttributes(type).map(
      (a) => sql`${sql.ref(`${left}.${a.name}`)} = ${sql.ref(`${right}.${a.name}`)}`,
    ),
    sql` and `,
  )}`;
}

/** The changed attributes of a staged row as {name: value} jsonb, compared with the stored row `t`. */
function changedValues(stage: Stage, side: "s" | "t"): RawBuilder<unknown> {
  const parts = stage.attributes
    .filter((a) => !a.identity)
    .map(
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

/**
 * Classifies every staged row against the stored records by natural key, set-based: Add (new, or
 * a not-yet-approved _proposal), Change (some present attribute differs, or the record was
 * discontinued and reappears) with old and new values of the changed attributes only, Unchanged.
 */
export async function classifyStage(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
): Promise<void> {
  const s = stageTable(stage);
  const t = entityTable(context, type);
  // Without these, the key match and the Missing anti-join scan the stage once per stored record.
  const keyColumns = sql.join(identityAttributes(type).map((a) => sql.id(a.name)));
  await sql`create index on ${s} (${keyColumns})`.execute(db);
  await sql`analyze ${s}`.execute(db);
  await sql`update ${s} s set _key_id = t.entity_key_id, _base_version = t.version, _was_deleted = t.is_deleted,
      _proposal = t.is_pending_new
    from ${t} t where ${identityMatch(type, "s", "t")}`.execute(db);
  await sql`update ${s} set _kind = 'Add' where _key_id is null or _proposal`.execute(db);
  await sql`create index on ${s} (_key_id)`.execute(db);
  await sql`update ${s} s set
      _kind = case when t.is_deleted or (${changedValues(stage, "s")}) <> '{}'::jsonb then 'Change' else 'Unchanged' end,
      _old_values = ${changedValues(stage, "t")},
      _new_values = ${changedValues(stage, "s")}
    from ${t} t where t.entity_key_id = s._key_id and not s._proposal`.execute(db);
}

/** Counts the classification, and the records Missing would discontinue. */
export async function countDiff(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  missing: { deleteMissing: boolean; scope?: MissingScope },
): Promise<DiffCounts> {
  const s = stageTable(stage);
  const t = entityTable(context, type);
  const { rows } = await sql<{ added: number; changed: number; unchanged: number }>`
    select count(*) filter (where _kind = 'Add')::int as added,
           count(*) filter (where _kind = 'Change')::int as changed,
           count(*) filter (where _kind = 'Unchanged')::int as unchanged
    from ${s}`.execute(db);
  const { rows: existing } = await sql<{ existing: number; missing: number }>`
    select count(*)::int as existing,
           count(*) filter (where not exists (select 1 from ${s} s where s._key_id = t.entity_key_id))::int as missing
    from ${t} t where not t.is_deleted and not t.is_pending_new and ${scopeSql(missing.scope)}`.execute(
    db,
  );
  return {
    ...rows[0],
    existing: existing[0].existing,
    missing: missing.deleteMissing ? existing[0].missing : 0,
  };
}

/** Writes the classified changes as pending events; answers the new event ids. */
export async function writeEvents(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: Stage,
  options: { deleteMissing: boolean; scope?: MissingScope; source: string; user: string },
): Promise<number[]> {
  const s = stageTable(stage);
  const t = entityTable(context, type);
  const cols = stage.attributes.map((a) => sql.id(a.name));
  const hidden = sql.raw(`array[${SYSTEM_COLUMNS.map((c) => `'${c}'`).join(",")}]`);
  const fullValues = sql`jsonb_build_object(${sql.join(stage.attributes.map((a) => sql`${a.name}::text, s.${sql.id(a.name)}`))})`;

  // New records are rows hidden as proposals until approved; a _proposal of the same key is reused.
  await sql`with ins as (
      insert into ${t} (${sql.join(cols)}, is_pending_new, created_by, updated_by)
      select ${sql.join(cols.map((c) => sql`s.${c}`))}, true, ${options.user}, ${options.user}
      from ${s} s where s._kind = 'Add' and s._key_id is null
      returning entity_key_id, ${sql.join(identityAttributes(type).map((a) => sql.id(a.name)))}
    )
    update ${s} s set _key_id = ins.entity_key_id from ins where ${identityMatch(type, "s", "ins")} and s._kind = 'Add'`.execute(
    db,
  );
  await sql`update ${t} t set ${sql.join(cols.map((c) => sql`${c} = s.${c}`))}, is_deleted = false,
      updated_at = now(), updated_by = ${options.user}
    from ${s} s where s._kind = 'Add' and s._proposal and t.entity_key_id = s._key_id`.execute(db);

  const missingKeys = options.deleteMissing
    ? sql`select t.entity_key_id from ${t} t where not t.is_deleted and not t.is_pending_new and ${scopeSql(options.scope)}
          and not exists (select 1 from ${s} s where s._key_id = t.entity_key_id)`
    : sql`select null::bigint as entity_key_id where false`;

  // A new _proposal for a record replaces the one waiting for it.
  await sql`update app.events set status = 'superseded', decided_by = ${options.user}, decided_at = now()
    where context = ${context.name} and entity_type = ${type.name} and status = 'pending'
      and entity_key_id in (select _key_id from ${s} where _kind in ('Add', 'Change') union all ${missingKeys})`.execute(
    db,
  );

  const { rows } = await sql<{ event_id: number }>`
    insert into app.events (context, entity_type, entity_key_id, action, status, old_values, new_values, base_version, source, created_by)
    select ${context.name}, ${type.name}, s._key_id, s._kind, 'pending',
           case when s._kind = 'Add' then null else s._old_values end,
           case when s._kind = 'Add' then ${fullValues} else s._new_values end,
           case when s._kind = 'Add' then null else s._base_version end, ${options.source}, ${options.user}
    from ${s} s where s._kind in ('Add', 'Change')
    union all
    select ${context.name}, ${type.name}, t.entity_key_id, 'Missing', 'pending', to_jsonb(t) - ${hidden}, null, t.version,
           ${options.source}, ${options.user}
    from ${t} t where t.entity_key_id in (${missingKeys})
    returning event_id`.execute(db);
  return rows.map((r) => r.event_id);
}
