import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { findEntityType } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { labelSql } from "./label-sql.ts";

/** Labels of referenced records by attribute name, then key id. */
export type ReferenceLabels = Map<string, Map<number, string>>;

/**
 * The labels of the records that sets of values (pending events' proposals, a saved record's key)
 * name in the given attributes, one query per reference attribute whatever the number of sets,
 * so a pending list or a message names them as the explorer does.
 */
export async function referenceLabels(
  db: Db,
  context: ContextModel,
  attributes: readonly Attribute[],
  valueSets: readonly (Record<string, unknown> | null)[],
): Promise<ReferenceLabels> {
  const labels: ReferenceLabels = new Map();
  for (const attr of attributes) {
    if (attr.dataType !== "Reference") continue;
    const ids = new Set<number>();
    for (const values of valueSets) {
      const value = values?.[attr.name];
      if (Number.isSafeInteger(value)) ids.add(value as number);
    }
    if (ids.size === 0) continue;
    const target = findEntityType(context, attr.referencedEntityType as string) as EntityType;
    const { rows } = await sql<{ id: number; label: string }>`
      select r.entity_key_id as id, ${labelSql(target, "r")} as label
      from ${sql.table(`${context.schema}.${viewNameOf(target.name)}`)} r
      where r.entity_key_id = any(${[...ids]}::bigint[])`.execute(db);
    labels.set(attr.name, new Map(rows.map((r) => [Number(r.id), r.label])));
  }
  return labels;
}
