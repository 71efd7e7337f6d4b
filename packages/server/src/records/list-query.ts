import {
  type EntityQuery,
  LABEL_ORDER,
  PATH_ATTRIBUTE,
  type RowConstraint,
  type RuleBreach,
} from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import { BadRequestError } from "../errors.ts";
import { isTreeOperator, treeConstraintSql, treePathSql } from "../hierarchy/tree-constraint.ts";
import { loggedCountAt, pastMoment, readViewAt, versionsAt } from "../history/as-of-sql.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { findEntityType } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { breaksAnyRule, ruleConditions } from "../rules/rule-sql.ts";
import { constraintSql } from "./constraint-sql.ts";
import { labelSql } from "./label-sql.ts";
import {
  type OrderTerm,
  orderValuesSql,
  type PageSql,
  pageSql,
  type RowsSql,
} from "./page-seek.ts";

/** One output column of the list query and where its value lands in the answer. */
export interface OutputColumn {
  alias: string;
  /** Attribute name, or a reference path such as `systemenvironment.technology`. */
  name: string;
  kind: "value" | "label";
}

export interface ListQuery extends PageSql {
  /** The total count, or null when the exact per-type counter answers it. */
  count: RawBuilder<{ n: number }> | null;
  /** The rows the list holds, unordered and unpaged: what the planner estimates a count from. */
  matching: RawBuilder<unknown>;
  columns: OutputColumn[];
  /** Attribute names the answer carries (requested, or all). */
  requested: string[];
  /** How many order values each row carries as s0, s1... (its bounds); null for every-row lists. */
  orderValues: number | null;
  /**
   * With includeRuleBreaches, the unique rules each row is judged on in the page statement: the
   * column that holds whether it breaks the rule, and the breach to report. The other rules need
   * only the row's values (contract's checkRecord).
   */
  uniqueChecks: { alias: string; breach: RuleBreach }[];
}

const view = (context: ContextModel, type: EntityType) =>
  sql.table(`${context.schema}.${viewNameOf(type.name)}`);

/** Where a list reads a type's rows: its read view, or the view as it stood at a past moment. */
interface RowSource {
  rows(type: EntityType): RawBuilder<unknown>;
  /** The records a unique rule compares with (the table's when undefined). */
  records?: RawBuilder<unknown>;
  at?: string;
}

function rowSource(context: ContextModel, type: EntityType, q: EntityQuery): RowSource {
  if (q.asOf === undefined) return { rows: (t) => view(context, t) };
  if (q.requirePending)
    throw new BadRequestError("asOf: a past moment has no pending changes (requirePending)");
  const at = pastMoment(q.asOf);
  return {
    rows: (t) => readViewAt(context, t, at),
    records: sql`(${versionsAt(context, type, at)})`,
    at,
  };
}

function attributeOf(type: EntityType, name: string, use: string): Attribute {
  const attr = type.attributes.find((a) => a.name === name);
  if (!attr) throw new BadRequestError(`${use}: unknown attribute '${name}' of '${type.name}'`);
  return attr;
}

export interface ListQueryOptions {
  /**
   * Keyset paging for long reads (the exports): only rows whose key is above this one, first page
   * only, so a chunk costs the same however deep it is. Needs the default order (no rowOrders).
   */
  afterKey?: number;
  /** Only these records (a comparison reads the records of its page at each of its moments). */
  keyIds?: readonly number[];
  /**
   * A list of every row (pageSize 0) reads at most one row more than this: enough to tell that it
   * holds more than a caller's list may answer (LIST_ALL_MAX_ROWS) without reading them all.
   */
  allRowsMax?: number;
  /**
   * The page reads only while its statement's `caller` holds a row: run it through `asCaller`, which
   * defines `caller` from the check that confirms the caller (CallerCheck).
   */
  callerChecked?: boolean;
}

/** Builds the page and count queries of /api/entity. Identifiers reach SQL only from the model. */
export function buildListQuery(
  context: ContextModel,
  type: EntityType,
  q: EntityQuery,
  options: ListQueryOptions = {},
): ListQuery {
  const { afterKey, keyIds, callerChecked, allRowsMax } = options;
  if (afterKey !== undefined && q.rowOrders?.length)
    throw new Error("keyset paging (afterKey) needs the default order");
  const source = rowSource(context, type, q);
  const columns: OutputColumn[] = [];
  const selects: RawBuilder<unknown>[] = [];
  const joins: RawBuilder<unknown>[] = [];
  const joined = new Map<string, string>();

  const joinReference = (attr: Attribute): { alias: string; target: EntityType } => {
    const target = findEntityType(context, attr.referencedEntityType as string) as EntityType;
    let alias = joined.get(attr.name);
    if (!alias) {
      alias = `r${joined.size}`;
      joined.set(attr.name, alias);
      joins.push(
        sql`left join ${source.rows(target)} as ${sql.id(alias)} on ${sql.ref(`${alias}.entity_key_id`)} = ${sql.ref(`v.${attr.name}`)}`,
      );
    }
    return { alias, target };
  };

  const requested = q.requestedAttributes ?? type.attributes.map((a) => a.name);
  const wanted = new Set(requested.filter((r) => !r.includes(".")));
  // Generated values are computed from the whole row, so every stored and formula column is read.
  for (const attr of type.attributes) {
    if (attr.generated) continue;
    const alias = `c${columns.length}`;
    columns.push({ alias, name: attr.name, kind: "value" });
    selects.push(sql`${sql.ref(`v.${attr.name}`)} as ${sql.id(alias)}`);
    if (attr.dataType === "Reference" && (wanted.has(attr.name) || q.includeLabels)) {
      const { alias: r, target } = joinReference(attr);
      const labelAlias = `l${columns.length}`;
      columns.push({ alias: labelAlias, name: attr.name, kind: "label" });
      selects.push(sql`${labelSql(target, r)} as ${sql.id(labelAlias)}`);
    }
  }
  for (const name of requested) {
    if (name === PATH_ATTRIBUTE) {
      const alias = `c${columns.length}`;
      columns.push({ alias, name, kind: "value" });
      selects.push(sql`${treePathSql(source.rows(type), type)} as ${sql.id(alias)}`);
      continue;
    }
    if (!name.includes(".")) {
      attributeOf(type, name, "requestedAttributes");
      continue;
    }
    const [refName, targetAttr, ...more] = name.split(".");
    const attr = attributeOf(type, refName, "requestedAttributes");
    if (attr.dataType !== "Reference" || more.length > 0)
      throw new BadRequestError(`requestedAttributes: '${name}' is not a path through a reference`);
    const { alias: r, target } = joinReference(attr);
    const leaf = attributeOf(target, targetAttr, "requestedAttributes");
    if (leaf.generated)
      throw new BadRequestError(
        `requestedAttributes: '${name}' is generated and cannot be read through a path`,
      );
    const alias = `c${columns.length}`;
    columns.push({ alias, name, kind: "value" });
    selects.push(sql`${sql.ref(`${r}.${leaf.name}`)} as ${sql.id(alias)}`);
  }
  if (q.includeLabels) selects.push(sql`${labelSql(type, "v")} as record_label`);
  const uniqueChecks = q.includeRuleBreaches ? uniqueChecksOf(context, type, source) : [];
  for (const check of uniqueChecks) selects.push(sql`${check.breaks} as ${sql.id(check.alias)}`);

  const where = whereSql(context, type, q, source);
  const terms = orderTerms(type, q);
  const size = q.pageSize ?? 20;
  if (size > 0) selects.push(...orderValuesSql(terms));
  const after = afterKey === undefined ? sql`` : sql`and v.entity_key_id > ${afterKey}`;
  const only = keyIds === undefined ? sql`` : sql`and v.entity_key_id = any(${keyIds}::bigint[])`;
  // A page of now is chosen key first: its keys in a subquery that reads only what the conditions
  // and the order name (from a covering index where there is one, such as a StartsWith filter's),
  // then its rows. Reading the rows of every match to sort them would touch the table once per
  // match. A past moment's rows are a union the outer query could not look up by key.
  const keyFirst = size > 0 && source.at === undefined;
  const rows: RowsSql = (condition, order, limit, part = sql``) => {
    const matching = sql<boolean>`${where} and ${condition} ${after} ${only}`;
    const chosen = keyFirst
      ? sql<boolean>`v.entity_key_id in (select v.entity_key_id from ${source.rows(type)} as v
          where ${matching} order by ${order} ${limit})`
      : matching;
    return sql<Record<string, unknown>>`
      select ${part} v.entity_key_id, v.is_deleted, v.version, ${sql.join(selects)}
      from ${source.rows(type)} as v ${sql.join(joins, sql` `)}
      where ${chosen} ${callerChecked ? sql`and exists (select from caller)` : sql``}
      order by ${order}
      ${keyFirst ? sql`` : limit}`;
  };
  const pageNum = Math.max(q.pageNum ?? 1, 1);
  const offset = afterKey !== undefined ? 0 : (pageNum - 1) * size;
  return {
    ...pageSql(
      rows,
      terms,
      { size, pageNum, offset, allRows: allRowsMax === undefined ? undefined : allRowsMax + 1 },
      q.seek,
    ),
    count: countSql(context, type, q, where, source),
    matching: sql`select v.entity_key_id from ${source.rows(type)} as v where ${where}`,
    columns,
    requested,
    orderValues: size > 0 ? terms.length : null,
    uniqueChecks: uniqueChecks.map(({ alias, breach }) => ({ alias, breach })),
  };
}

/** The type's unique rules as columns of a page: whether the row's value is another record's too. */
function uniqueChecksOf(context: ContextModel, type: EntityType, source: RowSource) {
  return ruleConditions(context, type, "v", source.records)
    .filter((c) => c.kind === "unique")
    .map((c, i) => ({
      alias: `u${i}`,
      breaks: c.breaks,
      breach: { attribute: c.attribute, rule: c.id, message: c.message, severity: c.severity },
    }));
}

/** The count of a list, or null when the exact per-type counter answers it (no filter at all). */
function countSql(
  context: ContextModel,
  type: EntityType,
  q: EntityQuery,
  where: RawBuilder<boolean>,
  source: RowSource,
): RawBuilder<{ n: number }> | null {
  const narrowed = Boolean(
    q.rowConstraints?.length ||
      q.constraintGroups?.length ||
      q.entityKeyID !== undefined ||
      q.breaksRule,
  );
  // A record has at most one pending event, so an otherwise unfiltered pending list counts events alone.
  if (q.requirePending && !narrowed)
    return sql`select count(*)::int as n from app.events e where ${pendingEventsSql(context, type, q)}`;
  const counted = sql`select count(*) from ${source.rows(type)} as v where ${where}`;
  if (narrowed || q.includeDeleted || q.onlyDeleted || q.requirePending)
    return sql`select (${counted})::int as n`;
  if (source.at === undefined) return null;
  return sql`select coalesce(${loggedCountAt(context, type, source.at)}, (${counted}))::int as n`;
}

/**
 * Every constraint holding (AND) on the row `alias`; generated attributes cannot be filtered. A
 * tree's Descendants and Ancestors read `rows`, the type's rows the list reads: the present ones
 * (`present`, their stored paths) or those of a past moment.
 */
export function constraintsSql(
  type: EntityType,
  constraints: readonly RowConstraint[],
  alias: string,
  rows: RawBuilder<unknown>,
  present: boolean,
): RawBuilder<boolean> {
  if (constraints.length === 0) return sql<boolean>`true`;
  const parts = constraints.map((c) => {
    const attr = attributeOf(type, c.attribute, "rowConstraints");
    if (attr.generated)
      throw new BadRequestError(
        `rowConstraints: '${attr.name}' is generated and cannot be filtered`,
      );
    if (isTreeOperator(c.operator)) return treeConstraintSql(type, attr, c, alias, rows, present);
    return constraintSql(attr, sql.ref(`${alias}.${attr.name}`), c);
  });
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

/** The pending events `e` a pending list asks for: of the type, of the chosen kinds and change set. */
function pendingEventsSql(
  context: ContextModel,
  type: EntityType,
  q: EntityQuery,
): RawBuilder<boolean> {
  const actions = q.pendingActions?.length
    ? sql`and e.action = any(${[...new Set(q.pendingActions)]}::text[])`
    : sql``;
  // Events name their change set in `source`: `upload:<upload id>`, `import:<metadata source>`.
  const sources = [
    q.pendingUploadId !== undefined && `upload:${q.pendingUploadId}`,
    q.pendingImportSourceId !== undefined && `import:${q.pendingImportSourceId}`,
  ].flatMap((source) => (source ? [sql`and e.source = ${source}`] : []));
  return sql<boolean>`e.context = ${context.name} and e.entity_type = ${type.name} and e.status = 'pending'
    ${actions} ${sql.join(sources, sql` `)}`;
}

function whereSql(
  context: ContextModel,
  type: EntityType,
  q: EntityQuery,
  source: RowSource,
): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [];
  if (q.requirePending) {
    parts.push(sql<boolean>`exists (
      select 1 from app.events e where ${pendingEventsSql(context, type, q)}
        and e.entity_key_id = v.entity_key_id)`);
  } else {
    // A record proposed but not yet approved is only visible in the pending lists.
    parts.push(sql<boolean>`not v.is_pending_new`);
    if (q.onlyDeleted) parts.push(sql<boolean>`v.is_deleted`);
    else if (!q.includeDeleted) parts.push(sql<boolean>`not v.is_deleted`);
  }
  if (q.entityKeyID !== undefined) parts.push(sql<boolean>`v.entity_key_id = ${q.entityKeyID}`);
  if (q.breaksRule) parts.push(breaksAnyRule(context, type, "v", source.records));
  const present = source.at === undefined;
  parts.push(constraintsSql(type, q.rowConstraints ?? [], "v", source.rows(type), present));
  if (q.constraintGroups?.length) {
    const groups = q.constraintGroups.map((g) =>
      constraintsSql(type, g, "v", source.rows(type), present),
    );
    parts.push(sql<boolean>`(${sql.join(groups, sql` or `)})`);
  }
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

/** The list's order; the key comes after it (orderBySql) and breaks ties, so paging is stable. */
function orderTerms(type: EntityType, q: EntityQuery): OrderTerm[] {
  return (q.rowOrders ?? []).map((o) => {
    if (o.attribute === LABEL_ORDER)
      return {
        expr: sql`lower(${labelSql(type, "v")})`,
        asc: o.asc,
        dataType: "String",
        name: "the label",
      };
    const attr = attributeOf(type, o.attribute, "rowOrders");
    if (attr.generated)
      throw new BadRequestError(`rowOrders: '${attr.name}' is generated and cannot be sorted`);
    return {
      expr: sql.ref(`v.${attr.name}`),
      asc: o.asc,
      dataType: attr.dataType,
      name: attr.name,
    };
  });
}
