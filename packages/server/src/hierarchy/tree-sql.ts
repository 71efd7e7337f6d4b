import { type RawBuilder, sql } from "kysely";
import type { EntityType, Hierarchy } from "../model/model.ts";
import { TREE_PATH } from "../model/sync/ddl.ts";
import { labelSql } from "../records/label-sql.ts";

/**
 * The keys of the records below `key` in the tree read from `rows` (a type's table, or its rows as
 * of a moment), level by level from its children, at most maxDepth levels down. The walk reads
 * only the tree index (parent, key) of a table, a lookup per node (lateral, fenced by `offset 0`:
 * misjudging a level's size, the planner would otherwise sort or hash the whole table once per
 * level); discontinued records hold no live children, so the list's own conditions leave them out.
 */
export function descendantsSql(
  rows: RawBuilder<unknown>,
  tree: Hierarchy,
  key: number,
): RawBuilder<unknown> {
  const parent = sql.id(tree.parent.name);
  return sql`with recursive below(key, level) as (
      select c.entity_key_id, 1 from ${rows} c where c.${parent} = ${key}
      union all
      select c.key, b.level + 1 from below b
        cross join lateral (select c.entity_key_id as key from ${rows} c where c.${parent} = b.key offset 0) c
      where b.level < ${tree.maxDepth})
    select key from below`;
}

/** Greater than any key: a stored path followed by it ends the range of the paths below it. */
const PAST_EVERY_KEY = sql.lit("9223372036854775807");

/**
 * Whether the row `alias` of a type's present rows `rows` lies below `key`: its stored path (the
 * keys from its root down to itself, migration 020) starts with key's and is longer. In the
 * order of key arrays those are exactly the paths after key's and before key's followed by a key
 * greater than any: one range of the path index, however large the subtree. A past moment's
 * rows are walked instead (descendantsSql): the paths stored are today's.
 */
export function belowInStoredPathsSql(
  rows: RawBuilder<unknown>,
  key: number,
  alias: string,
): RawBuilder<boolean> {
  const path = sql.ref(`${alias}.${TREE_PATH.name}`);
  const stored = sql`(select p.${sql.id(TREE_PATH.name)} from ${rows} p where p.entity_key_id = ${key})`;
  return sql<boolean>`(${path} > ${stored} and ${path} < ${stored} || ${PAST_EVERY_KEY}::bigint)`;
}

/** The keys of the records above `key` (its parent, and so on up to its root) in the tree of `rows`. */
export function ancestorsSql(
  rows: RawBuilder<unknown>,
  tree: Hierarchy,
  key: number,
): RawBuilder<unknown> {
  const parent = sql.id(tree.parent.name);
  return sql`with recursive above(key, parent, level) as (
      select r.entity_key_id, r.${parent}, 0 from ${rows} r where r.entity_key_id = ${key}
      union all
      select r.entity_key_id, r.${parent}, a.level + 1 from above a join ${rows} r on r.entity_key_id = a.parent
      where a.level < ${tree.maxDepth})
    select key from above where level > 0`;
}

/**
 * The place of the row `alias` in the tree of `rows`: the labels from its root down to itself,
 * joined by ' / ' (`World / Europe / Western Europe`); at most maxDepth levels are read.
 */
export function pathSql(
  rows: RawBuilder<unknown>,
  type: EntityType,
  tree: Hierarchy,
  alias: string,
): RawBuilder<string> {
  const parent = sql.id(tree.parent.name);
  return sql<string>`(with recursive above(parent, label, level) as (
      select ${sql.ref(`${alias}.${tree.parent.name}`)}, ${labelSql(type, alias)}, 0
      union all
      select r.${parent}, ${labelSql(type, "r")}, a.level + 1 from above a join ${rows} r on r.entity_key_id = a.parent
      where a.level < ${tree.maxDepth} - 1)
    select string_agg(label, ' / ' order by level desc) from above)`;
}
