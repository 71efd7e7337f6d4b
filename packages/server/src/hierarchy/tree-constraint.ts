import { PATH_ATTRIBUTE, type RowConstraint, TREE_OPERATORS } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import { BadRequestError } from "../errors.ts";
import type { Attribute, EntityType } from "../model/model.ts";
import { ancestorsSql, belowInStoredPathsSql, descendantsSql, pathSql } from "./tree-sql.ts";

export const isTreeOperator = (operator: string): boolean =>
  (TREE_OPERATORS as readonly string[]).includes(operator);

/**
 * A Descendants or Ancestors constraint on the row `alias`: its key among those below (above) the
 * one record given, in the tree of `rows`. Only a type's parent attribute takes them. When `rows`
 * are the present ones (`present`), a subtree is read from the stored paths.
 */
export function treeConstraintSql(
  type: EntityType,
  attr: Attribute,
  constraint: RowConstraint,
  alias: string,
  rows: RawBuilder<unknown>,
  present: boolean,
): RawBuilder<boolean> {
  const tree = type.hierarchy;
  const at = `Filter on '${attr.name}' (${constraint.operator})`;
  if (!tree || tree.parent.name !== attr.name)
    throw new BadRequestError(`${at}: only the parent attribute of a tree takes this operator`);
  const [key, ...more] = constraint.values;
  if (more.length > 0 || typeof key !== "number" || !Number.isInteger(key))
    throw new BadRequestError(`${at}: takes exactly one key id`);
  if (constraint.operator === "Descendants" && present)
    return belowInStoredPathsSql(rows, key, alias);
  const keys =
    constraint.operator === "Descendants"
      ? descendantsSql(rows, tree, key)
      : ancestorsSql(rows, tree, key);
  return sql<boolean>`${sql.ref(`${alias}.entity_key_id`)} in (${keys})`;
}

/** The `_path` a list requests of a tree's records (the row `v`); refused on a type without a parent. */
export function treePathSql(rows: RawBuilder<unknown>, type: EntityType): RawBuilder<string> {
  if (!type.hierarchy)
    throw new BadRequestError(
      `requestedAttributes: '${PATH_ATTRIBUTE}' is the place of a record in a tree, and '${type.name}' has no parent attribute`,
    );
  return pathSql(rows, type, type.hierarchy, "v");
}
