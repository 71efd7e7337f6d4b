import { type ScalarValue, valueBreaches } from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { AppError } from "../errors.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { identityAttributes } from "../model/model.ts";
import { recordsByKeys } from "../records/records.repository.ts";
import { recordRuleProblems } from "./record-check.ts";

/**
 * Refuses (400) what a custom action did to the values of its changes when a record breaks an
 * error rule afterwards: the action's handler ran in `tx`, which the refusal rolls back. Checks
 * the attributes the changes set, as a web save does.
 */
export async function checkActionResult(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  eventIds: readonly number[],
): Promise<void> {
  const { rows: events } = await sql<{
    entity_key_id: string;
    new_values: Record<string, ScalarValue> | null;
  }>`
    select entity_key_id, new_values from app.events where event_id = any(${eventIds}::bigint[])`.execute(
    tx,
  );
  const stored = await recordsByKeys(
    tx,
    context,
    type,
    events.map((e) => Number(e.entity_key_id)),
  );
  const byKey = new Map(stored.map((r) => [r.entityKeyId, r]));
  const problems: string[] = [];
  for (const event of events) {
    const record = byKey.get(Number(event.entity_key_id));
    const changes = event.new_values ?? {};
    if (!record || Object.keys(changes).length === 0) continue;
    const values = { ...record.values, ...changes };
    const key = identityAttributes(type)
      .map((a) => String(values[a.name]))
      .join(" / ");
    const found: string[] = [];
    for (const attr of type.attributes.filter((a) => a.name in changes))
      for (const b of valueBreaches(attr, values[attr.name]))
        if (b.severity === "error") found.push(`${attr.name}: ${b.message}`);
    found.push(
      ...(await recordRuleProblems(
        tx,
        context,
        type,
        values,
        new Set(Object.keys(changes)),
        record.entityKeyId,
      )),
    );
    if (found.length > 0) problems.push(`${type.uiName} '${key}': ${found.join("; ")}`);
  }
  if (problems.length > 0) throw new AppError(400, `Nothing was changed. ${problems.join(". ")}`);
}
