import type { ScalarValue } from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { BadRequestError } from "../errors.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { treeProblems } from "./tree-check.ts";

/**
 * Refuses a web save (or the amend of a pending change) that sets a record's parent where the tree
 * cannot take it (treeProblems), naming the field; `key` is undefined for a new record, which
 * `name` names. Judged on the proposal itself: an approval judges it again with what else it
 * approves.
 */
export async function checkTreeOfSave(
  db: Db,
  context: ContextModel,
  type: EntityType,
  key: number | undefined,
  values: Record<string, ScalarValue>,
  name?: () => Promise<string>,
): Promise<void> {
  const tree = type.hierarchy;
  if (!tree || !(tree.parent.name in values)) return;
  const parent = values[tree.parent.name];
  if (key === undefined && parent === null) return;
  if (key !== undefined && parent === key)
    throw new BadRequestError(`${tree.parent.name}: a record cannot be its own parent`);
  const label = key === undefined && name ? `'${await name()}'` : null;
  const problems = await treeProblems(
    db,
    context,
    type,
    sql`select ${key ?? null}::bigint, ${parent}::bigint, ${label}::text`,
  );
  if (problems.length > 0)
    throw new BadRequestError(problems.map((p) => `${tree.parent.name}: ${p}`).join("; "));
}
