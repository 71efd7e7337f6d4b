import type { ScalarValue } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { SQL_TYPES } from "../model/sync/ddl.ts";
import { entityTable, identityMatch } from "../records/entity-table.ts";

// The lookups of `unique` rules: a value must not be held by another live record of the type
// (approved, not discontinued). Records that broke a rule before it was declared keep their
// values; only a new or changed value is checked.

const LIVE = (alias: string) =>
  sql`not ${sql.ref(`${alias}.is_deleted`)} and not ${sql.ref(`${alias}.is_pending_new`)}`;

/** The attributes of a type that carry a unique rule of this severity. */
export function uniqueAttributes(
  type: EntityType,
  severity: "error" | "warning" = "error",
): Attribute[] {
  return type.attributes.filter((a) =>
    a.rules.some((r) => r.kind === "unique" && r.severity === severity),
  );
}

/** Whether another live record than `exceptKey` has this value. */
export async function isTaken(
  db: Db,
  context: ContextModel,
  type: EntityType,
  attr: Attribute,
  value: ScalarValue,
  exceptKey: number | undefined,
): Promise<boolean> {
  const { rows } = await sql`select 1 from ${entityTable(context, type)} o
    where ${sql.id(attr.name)} = ${value} and ${LIVE("o")}
      and o.entity_key_id is distinct from ${exceptKey ?? null}::bigint
    limit 1`.execute(db);
  return rows.length > 0;
}

/** A staged row whose value breaks a unique rule: its row number and its staged values. */
export interface StagedBreach {
  rowNumber: number;
  values: Record<string, ScalarValue>;
}

/**
 * The staged rows (`stage`: `_row_no` and the file's attributes, its identity indexed) whose new
 * or changed value of `attr` another row of the file, or another live record the file does not
 * hold, also has. `othersLeave`: the records the file lacks are being marked missing.
 */
export async function stagedUniqueBreaches(
  db: Db,
  context: ContextModel,
  type: EntityType,
  stage: ReturnType<typeof sql.table>,
  attr: Attribute,
  { othersLeave, limit }: { othersLeave: boolean; limit: number },
): Promise<StagedBreach[]> {
  const col = sql.id(attr.name);
  const t = entityTable(context, type);
  const heldElsewhere = othersLeave
    ? sql`false`
    : sql`exists (select 1 from ${t} o where o.${col} = f.${col} and ${LIVE("o")}
        and not exists (select 1 from ${stage} x where ${identityMatch(type, "x", "o")}))`;
  const { rows } = await sql<Record<string, ScalarValue> & { _row_no: number }>`
    with f as (select s.*, count(*) over (partition by s.${col}) as _n from ${stage} s where s.${col} is not null)
    select f.* from f left join ${t} t on ${identityMatch(type, "f", "t")} and not (t.is_pending_new and t.is_deleted)
    where (t.entity_key_id is null or t.${col} is distinct from f.${col})
      and (f._n > 1 or ${heldElsewhere})
    order by f._row_no limit ${limit}`.execute(db);
  return rows.map(({ _row_no, _n, ...values }) => ({ rowNumber: Number(_row_no), values }));
}

/**
 * After a first load into an empty table: the records (by load position, 1-based in key order)
 * whose value of `attr` another loaded record also has.
 */
export async function loadedUniqueBreaches(
  db: Db,
  context: ContextModel,
  type: EntityType,
  attr: Attribute,
  limit: number,
): Promise<{ position: number; values: Record<string, ScalarValue> }[]> {
  const col = sql.id(attr.name);
  const { rows } = await sql<Record<string, ScalarValue> & { _position: number }>`
    select * from (
      select t.*, row_number() over (order by entity_key_id)::int as _position,
        count(*) over (partition by ${col}) as _n
      from ${entityTable(context, type)} t where ${col} is not null) d
    where _n > 1 order by _position limit ${limit}`.execute(db);
  return rows.map(({ _position, ...values }) => ({ position: Number(_position), values }));
}

/**
 * The values of `attr` that the records just changed by these (approved) events share with
 * another live record: two proposals can each be unique when made and collide once both are
 * approved. `approved`: a condition on `e` (app.events) that holds for those events.
 */
export async function approvedUniqueBreaches(
  db: Db,
  context: ContextModel,
  type: EntityType,
  attr: Attribute,
  approved: RawBuilder<boolean>,
  limit: number,
): Promise<string[]> {
  const col = sql.id(attr.name);
  const t = entityTable(context, type);
  const { rows } = await sql<{ value: string }>`
    select distinct t.${col}::text as value from app.events e
      join ${t} t on t.entity_key_id = e.entity_key_id
    where ${approved} and e.new_values ? ${attr.name}
      and t.${col} is not null and ${LIVE("t")}
      and exists (select 1 from ${t} o where o.${col} = t.${col}
        and o.entity_key_id <> t.entity_key_id and ${LIVE("o")})
    limit ${limit}`.execute(db);
  return rows.map((r) => r.value);
}

/**
 * Of these pending events, the ones that propose a value of `attr` another live record than their
 * own already has (what a `unique` warning tells the approver; an error refuses such a change).
 */
export async function pendingTakenValues(
  db: Db,
  context: ContextModel,
  type: EntityType,
  attr: Attribute,
  eventIds: readonly number[],
): Promise<Set<number>> {
  if (eventIds.length === 0) return new Set();
  const proposed = sql`(e.new_values ->> ${attr.name})::${sql.raw(SQL_TYPES[attr.dataType])}`;
  const { rows } = await sql<{ event_id: string }>`
    select e.event_id from app.events e
    where e.event_id = any(${eventIds}::bigint[]) and e.action not in ('Delete', 'Missing')
      and nullif(e.new_values ->> ${attr.name}, '') is not null
      and exists (select 1 from ${entityTable(context, type)} o where o.${sql.id(attr.name)} = ${proposed}
        and ${LIVE("o")} and o.entity_key_id <> e.entity_key_id)`.execute(db);
  return new Set(rows.map((r) => Number(r.event_id)));
}
