import type { TreeNode } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { EntityType, Hierarchy } from "../model/model.ts";
import { labelSql } from "../records/label-sql.ts";

// The tree's reads, over `rows`: a type's read view, or its rows as of a moment (history/).

/** Approved and not discontinued: what the tree shows. */
const live = (alias: string) =>
  sql<boolean>`not ${sql.ref(`${alias}.is_deleted`)} and not ${sql.ref(`${alias}.is_pending_new`)}`;

/**
 * A page of the children of `parent` (the roots for null) in key order, after `afterKey`, each
 * with whether it has children of its own; read from the tree index (parent, key), so a node with
 * 50,000 children opens as fast as one with ten.
 */
export async function childrenPage(
  db: Db,
  rows: RawBuilder<unknown>,
  type: EntityType,
  tree: Hierarchy,
  page: { parent: number | null; afterKey: number; size: number },
): Promise<TreeNode[]> {
  const { rows: found } = await sql<{ key: string; label: string; has_children: boolean }>`
    select c.entity_key_id as key, ${labelSql(type, "c")} as label,
      exists (select from ${rows} g where g.${sql.id(tree.parent.name)} = c.entity_key_id and ${live("g")}) as has_children
    from ${rows} c
    where ${childOf(tree, "c", page.parent)} and ${live("c")} and c.entity_key_id > ${page.afterKey}
    order by c.entity_key_id limit ${page.size}`.execute(db);
  return found.map((r) => ({
    entityKeyID: Number(r.key),
    label: r.label,
    hasChildren: r.has_children,
  }));
}

/** How many live children `parent` has (the roots for null). */
export async function childCount(
  db: Db,
  rows: RawBuilder<unknown>,
  tree: Hierarchy,
  parent: number | null,
): Promise<number> {
  const { rows: found } = await sql<{ n: number }>`select count(*)::int as n from ${rows} c
    where ${childOf(tree, "c", parent)} and ${live("c")}`.execute(db);
  return found[0].n;
}

function childOf(tree: Hierarchy, alias: string, parent: number | null): RawBuilder<boolean> {
  const column = sql.ref(`${alias}.${tree.parent.name}`);
  return parent === null ? sql<boolean>`${column} is null` : sql<boolean>`${column} = ${parent}`;
}

/** The records from the root down to `key` (itself last), with their labels; empty when it is not there. */
export async function pathOf(
  db: Db,
  rows: RawBuilder<unknown>,
  type: EntityType,
  tree: Hierarchy,
  key: number,
): Promise<{ entityKeyID: number; label: string }[]> {
  const parent = sql.id(tree.parent.name);
  const { rows: found } = await sql<{
    key: string;
    label: string;
  }>`with recursive above(key, parent, label, level) as (
      select r.entity_key_id, r.${parent}, ${labelSql(type, "r")}, 0 from ${rows} r where r.entity_key_id = ${key}
      union all
      select r.entity_key_id, r.${parent}, ${labelSql(type, "r")}, a.level + 1
      from above a join ${rows} r on r.entity_key_id = a.parent
      where a.level < ${tree.maxDepth})
    select key, label from above order by level desc`.execute(db);
  return found.map((r) => ({ entityKeyID: Number(r.key), label: r.label }));
}
