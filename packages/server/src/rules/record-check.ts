import {
  breaksTypeRule,
  type RuleBreach,
  recordBreaches,
  type ScalarValue,
  typeRuleAttribute,
  typeRuleAttributes,
  valueBreaches,
} from "@ledgerline/contract";
import type { RawBuilder } from "kysely";
import type { EventRow } from "../changes/events.repository.ts";
import type { Db } from "../db/connection.ts";
import { ConflictError } from "../errors.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import {
  approvedUniqueBreaches,
  isTaken,
  pendingTakenValues,
  uniqueAttributes,
} from "./unique.repository.ts";

/**
 * The problems of a record as a save would leave it (`name: message`): the error rules between its
 * attributes and the unique rules it breaks. Only rules that read a changed attribute are judged
 * (a record that broke a rule before it was declared can still be edited elsewhere), and none that
 * reads an attribute in `unknown` (whose given value was refused). Value rules are checked as each
 * value is converted (records/values.ts).
 */
export async function recordRuleProblems(
  db: Db,
  context: ContextModel,
  type: EntityType,
  record: Readonly<Record<string, ScalarValue>>,
  changed: ReadonlySet<string>,
  keyId: number | undefined,
  unknown: ReadonlySet<string> = new Set(),
): Promise<string[]> {
  const problems: string[] = [];
  for (const rule of type.rules) {
    if (typeRuleAttributes(rule).some((n) => unknown.has(n))) continue;
    if (rule.severity !== "error" || !typeRuleAttributes(rule).some((n) => changed.has(n)))
      continue;
    if (breaksTypeRule(rule, (name) => record[name]))
      problems.push(`${typeRuleAttribute(rule)}: ${rule.message}`);
  }
  for (const attr of uniqueAttributes(type)) {
    const value = record[attr.name];
    if (!changed.has(attr.name) || value === null || value === undefined || value === "") continue;
    if (await isTaken(db, context, type, attr, value, keyId)) {
      const rule = attr.rules.find((r) => r.kind === "unique" && r.severity === "error");
      problems.push(`${attr.name}: ${rule?.message}`);
    }
  }
  return problems;
}

/**
 * The rules (errors and warnings, unique aside) a change breaks: its values', and those between
 * attributes it sets, judged on the record as the change leaves it (`before` overlaid with
 * `changes`; a rule reading an attribute `before` lacks is not judged). For the approver's eyes.
 */
export function changeBreaches(
  type: EntityType,
  before: Readonly<Record<string, ScalarValue>>,
  changes: Readonly<Record<string, ScalarValue>>,
): RuleBreach[] {
  const after: Record<string, ScalarValue> = { ...before, ...changes };
  const breaches: RuleBreach[] = [];
  for (const attr of type.attributes)
    if (attr.name in changes) breaches.push(...valueBreaches(attr, changes[attr.name]));
  const judged = type.rules.filter((rule) => {
    const names = typeRuleAttributes(rule);
    return names.some((n) => n in changes) && names.every((n) => n in after);
  });
  breaches.push(...recordBreaches(judged, (name) => after[name]));
  return breaches;
}

/**
 * The `unique` warnings pending changes break, by event id: a value another live record already
 * has. Judged as they are read, as changeBreaches judges the other rules; one statement per
 * attribute with such a rule, none for a type without.
 */
export async function pendingUniqueWarnings(
  db: Db,
  context: ContextModel,
  type: EntityType,
  events: readonly EventRow[],
): Promise<Map<number, RuleBreach[]>> {
  const breaches = new Map<number, RuleBreach[]>();
  const eventIds = events.map((e) => Number(e.event_id));
  for (const attr of type.attributes) {
    const rule = attr.rules.find((r) => r.kind === "unique" && r.severity === "warning");
    if (!rule) continue;
    for (const eventId of await pendingTakenValues(db, context, type, attr, eventIds)) {
      const breach = {
        attribute: attr.name,
        rule: rule.id,
        message: rule.message,
        severity: rule.severity,
      };
      breaches.set(eventId, [...(breaches.get(eventId) ?? []), breach]);
    }
  }
  return breaches;
}

/**
 * Refuses (409) an approval after which two live records share the value of a unique rule (two
 * pending changes may each have been unique when proposed); the caller's transaction rolls back.
 * `approved`: a condition on `e` (app.events) that holds for the approved events.
 */
export async function checkApprovedUnique(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  approved: RawBuilder<boolean>,
): Promise<void> {
  const problems: string[] = [];
  for (const attr of uniqueAttributes(type)) {
    const values = await approvedUniqueBreaches(tx, context, type, attr, approved, 10);
    const rule = attr.rules.find((r) => r.kind === "unique" && r.severity === "error");
    if (values.length > 0)
      problems.push(`${attr.name}: ${rule?.message} (${values.map((v) => `'${v}'`).join(", ")})`);
  }
  if (problems.length > 0)
    throw new ConflictError(
      `Nothing was approved: approving these changes would break a rule. ${problems.join("; ")}`,
    );
}
