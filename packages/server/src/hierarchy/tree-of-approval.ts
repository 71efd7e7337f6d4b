import { sql } from "kysely";
import { SELECTED } from "../changes/selected-events.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError } from "../errors.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { entityTable } from "../records/entity-table.ts";
import { treeProblems } from "./tree-check.ts";

/**
 * Refuses, as a whole, an approval (or a custom action applying changes) whose applied changes,
 * written in the caller's transaction, leave the tree with a loop, too deep, or with a live record
 * under a discontinued one (treeProblems): two changes each fine alone may close a loop together.
 * The records created, brought back, or whose parent an event sets are judged as now stored.
 */
export async function checkTreeOfApproval(
  tx: Db,
  context: ContextModel,
  type: EntityType,
): Promise<void> {
  const tree = type.hierarchy;
  if (!tree) return;
  const problems = await treeProblems(
    tx,
    context,
    type,
    sql`select t.entity_key_id, t.${sql.id(tree.parent.name)}, null::text
      from ${SELECTED} s join app.events e on e.event_id = s.event_id
        join ${entityTable(context, type)} t on t.entity_key_id = s.entity_key_id
      where s.outcome = 'create' or (s.outcome = 'change' and (s.was_deleted or e.new_values ? ${tree.parent.name}))`,
  );
  if (problems.length > 0) throw new ConflictError(`Nothing was approved: ${problems.join("; ")}`);
}
