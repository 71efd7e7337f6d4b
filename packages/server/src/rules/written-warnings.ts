import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { ruleConditions } from "./rule-sql.ts";

/**
 * How many of the records a change set added or changed, and applied, break a warning rule of
 * their type as they now stand: what nobody reviewed when no approval step came between (the
 * upload's answer says so). `source`: the events' change set (`upload:<id>`). Asks nothing of a
 * type without warning rules.
 */
export async function appliedRecordsWithWarnings(
  db: Db,
  context: ContextModel,
  type: EntityType,
  source: string,
): Promise<number> {
  const warnings = ruleConditions(context, type, "v").filter((c) => c.severity === "warning");
  if (warnings.length === 0) return 0;
  const { rows } = await sql<{ n: number }>`select count(*)::int as n
    from ${sql.table(`${context.schema}.${type.name}`)} v
    where v.entity_key_id in (select e.entity_key_id from app.events e
        where e.source = ${source} and e.status = 'approved' and e.action in ('Add', 'Change'))
      and not v.is_deleted and not v.is_pending_new
      and (${sql.join(
        warnings.map((c) => c.breaks),
        sql` or `,
      )})`.execute(db);
  return rows[0].n;
}
