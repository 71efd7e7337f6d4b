import type { ChangeKind, RowConstraint } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { storedAttributes } from "../model/model.ts";
import { historyNameOf } from "../model/sync/desired.ts";
import { constraintsSql } from "../records/list-query.ts";
import { readViewAt, versionColumns, withFormulas } from "./as-of-sql.ts";

export interface Difference {
  entityKeyID: number;
  kind: ChangeKind;
}

export interface DifferencePage {
  counts: Record<ChangeKind, number>;
  /** Rows of the chosen kinds (all counted kinds when none are chosen). */
  querySize: number;
  page: Difference[];
}

export interface DifferenceQuery {
  /** The two moments, the earlier first (ISO text). */
  earlier: string;
  later: string;
  /** true: `from` is the later moment (the comparison runs backwards in time). */
  backwards: boolean;
  kinds: readonly ChangeKind[];
  constraints: readonly RowConstraint[];
  /** Any group holding (OR), each an AND of constraints. */
  groups?: readonly (readonly RowConstraint[])[];
  /** 0: every row. */
  pageSize: number;
  pageNum: number;
}

/**
 * Only records with a version starting between the two moments can differ, and for them both
 * states are found by ranges of when versions started and ended, never by rebuilding the type:
 * - at the earlier moment: the version that ended between the two and had started by then;
 * - at the later moment: the version that started between the two and was still current then
 *   (the current row, or a history row that ended after it).
 * A record absent from a side did not exist then.
 */
function statesBetween(context: ContextModel, type: EntityType, q: DifferenceQuery) {
  const columns = versionColumns(type);
  const table = sql.table(`${context.schema}.${type.name}`);
  const history = sql.table(`${context.schema}.${historyNameOf(type.name)}`);
  const earlier = sql`${q.earlier}::timestamptz`;
  const later = sql`${q.later}::timestamptz`;
  const atEarlier = sql`select ${columns} from ${history}
    where valid_to > ${earlier} and valid_to <= ${later} and updated_at <= ${earlier}`;
  const atLater = sql`select ${columns} from ${table}
      where not is_pending_new and updated_at > ${earlier} and updated_at <= ${later}
    union all
    select ${columns} from ${history}
      where updated_at > ${earlier} and updated_at <= ${later} and valid_to > ${later}`;
  return q.backwards
    ? { before: withFormulas(type, atLater), after: withFormulas(type, atEarlier) }
    : { before: withFormulas(type, atEarlier), after: withFormulas(type, atLater) };
}

/** The kind of change from `b` (before) to `a` (after), null when they are alike. */
function kindSql(type: EntityType): RawBuilder<ChangeKind | null> {
  const values = (alias: string) =>
    sql.join(storedAttributes(type).map((attr) => sql.ref(`${alias}.${attr.name}`)));
  return sql<ChangeKind | null>`case
    when b.entity_key_id is null or b.is_deleted then
      case when a.entity_key_id is not null and not a.is_deleted then 'Added' end
    when a.entity_key_id is null or a.is_deleted then 'Removed'
    when row(${values("b")}) is distinct from row(${values("a")}) then 'Changed'
  end`;
}

/** The records that differ between two moments: counts by kind and one page, in key order. */
export async function differences(
  db: Db,
  context: ContextModel,
  type: EntityType,
  q: DifferenceQuery,
): Promise<DifferencePage> {
  const { before, after } = statesBetween(context, type, q);
  // A record matches when its state on either side does.
  // A tree's Descendants and Ancestors walk the tree of the same moment.
  const treeAt = (moment: string) => readViewAt(context, type, moment);
  const matches = (alias: string, rows: RawBuilder<unknown>) => {
    const groups = (q.groups ?? []).map((g) => constraintsSql(type, g, alias, rows, false));
    return sql`(${sql.ref(`${alias}.entity_key_id`)} is not null
      and ${constraintsSql(type, q.constraints, alias, rows, false)}
      and ${groups.length === 0 ? sql`true` : sql`(${sql.join(groups, sql` or `)})`})`;
  };
  const filter =
    q.constraints.length === 0 && !q.groups?.length
      ? sql`true`
      : sql`(${matches("b", treeAt(q.backwards ? q.later : q.earlier))} or ${matches("a", treeAt(q.backwards ? q.earlier : q.later))})`;
  const kinds = q.kinds.length === 0 ? sql`true` : sql`d.kind in (${sql.join(q.kinds)})`;
  const limit =
    q.pageSize === 0 ? sql`` : sql`limit ${q.pageSize} offset ${(q.pageNum - 1) * q.pageSize}`;
  const { rows } = await sql<{
    counts: Partial<Record<ChangeKind, number>> | null;
    page: { k: number; kind: ChangeKind }[];
  }>`
    with d as materialized (
      select coalesce(a.entity_key_id, b.entity_key_id) as k, ${kindSql(type)} as kind
      from ${before} b full join ${after} a on a.entity_key_id = b.entity_key_id
      where ${filter}
    )
    select
      (select json_object_agg(kind, n) from (
        select kind, count(*)::int as n from d where kind is not null group by kind) c) as counts,
      (select coalesce(json_agg(json_build_object('k', p.k, 'kind', p.kind) order by p.k), '[]') from (
        select d.k, d.kind from d where d.kind is not null and ${kinds} order by d.k ${limit}) p) as page`.execute(
    db,
  );
  const counts = { Added: 0, Changed: 0, Removed: 0, ...rows[0].counts };
  const chosen = q.kinds.length === 0 ? (["Added", "Changed", "Removed"] as const) : q.kinds;
  return {
    counts,
    querySize: chosen.reduce((sum, kind) => sum + counts[kind], 0),
    page: rows[0].page.map((p) => ({ entityKeyID: Number(p.k), kind: p.kind })),
  };
}
