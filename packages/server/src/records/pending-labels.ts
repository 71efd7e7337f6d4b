import { sql } from "kysely";
import type { EventRow } from "../changes/events.repository.ts";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { findEntityType } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { labelSql } from "./label-sql.ts";

/** Labels of referenced records by attribute name, then key id. */
export type ReferenceLabels = Map<string, Map<number, string>>;

/**
 * The labels of the records that pending events propose as reference values, one query per
 * reference attribute whatever the page size, so a pending list names them as the explorer does.
 */
export async function pendingReferenceLabels(
  db: Db,
  context: ContextModel,
  type: EntityType,
  events: readonly EventRow[],
): Promise<ReferenceLabels> {
  const labels: ReferenceLabels = new Map();
  for (const attr of type.attributes) {
    if (attr.dataType !== "Reference") continue;
    const ids = new Set<number>();
    for (const e of events) {
      const value = (e.new_values as Record<string, unknown> | null)?.[attr.name];
      if (typeof value === "number") ids.add(value);
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
