import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { IngestInput } from "../ingest/ingest-input.ts";
import { IngestRejected } from "../ingest/ingest-input.ts";
import { diffTable, type Stage } from "../ingest/stage.repository.ts";
import { entityTable } from "../records/entity-table.ts";
import { treeProblems } from "./tree-check.ts";

/**
 * Refuses an upload (stage 5, the guard) whose diff, laid over the stored tree, would leave it with
 * a loop, too deep, or a live record under a discontinued one (treeProblems): every row adding a
 * record, bringing one back, or giving one another parent, judged together, so a file that moves A
 * under B and B under A is refused before anything is written, pending or not.
 */
export async function checkTreeOfIngest(tx: Db, input: IngestInput, stage: Stage): Promise<void> {
  const tree = input.type.hierarchy;
  if (!tree) return;
  const column = sql.id(tree.parent.name);
  const inFile = stage.attributes.some((a) => a.name === tree.parent.name);
  const parent = inFile ? sql`d.${column}` : sql`t.${column}`;
  const moved = inFile ? sql`d.${column} is distinct from t.${column}` : sql`false`;
  const problems = await treeProblems(
    tx,
    input.context,
    input.type,
    sql`select d._key_id, ${parent}, case when d._kind = 'Add' then 'Row ' || d._row_no end
      from ${diffTable(stage)} d left join ${entityTable(input.context, input.type)} t on t.entity_key_id = d._key_id
      where d._kind = 'Add' or (d._kind = 'Change' and (d._was_deleted or ${moved}))`,
  );
  if (problems.length > 0)
    throw new IngestRejected(422, `The file was not applied: ${problems.join("; ")}`);
}
