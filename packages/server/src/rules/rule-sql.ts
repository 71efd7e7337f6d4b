import type { AttributeRule, TypeRule } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";

// Rules as SQL conditions on stored records (alias `v`): what the 'Breaks a rule' filter of the
// explorer and the start-up count of breaches ask. They state the checks of contract/rules.ts
// over a whole table at once; patterns are anchored as RE2's full match is, and run on
// PostgreSQL's own engine (the model's patterns are checked to compile there at start-up).

const col = (alias: string, name: string) => sql.ref(`${alias}.${name}`);

function bound(attr: Attribute, value: number | string): RawBuilder<unknown> {
  if (attr.dataType !== "Date") return sql`${value}`;
  return value === "today" ? sql`current_date` : sql`${value}::date`;
}

/** The anchored form of a rule's pattern, as PostgreSQL matches it. */
export function anchoredPattern(pattern: string): string {
  return `^(?:${pattern})$`;
}

function attributeRuleSql(
  context: ContextModel,
  type: EntityType,
  attr: Attribute,
  rule: AttributeRule,
  alias: string,
): RawBuilder<boolean> {
  const v = col(alias, attr.name);
  switch (rule.kind) {
    case "pattern":
      return sql<boolean>`${v} !~ ${anchoredPattern(rule.pattern)}`;
    case "range": {
      const parts = [
        rule.min !== undefined && sql`${v} < ${bound(attr, rule.min)}`,
        rule.max !== undefined && sql`${v} > ${bound(attr, rule.max)}`,
      ].filter((p) => p !== false);
      return sql<boolean>`(${sql.join(parts, sql` or `)})`;
    }
    case "length": {
      const parts = [
        rule.min !== undefined && sql`char_length(${v}) < ${rule.min}`,
        rule.max !== undefined && sql`char_length(${v}) > ${rule.max}`,
      ].filter((p) => p !== false);
      return sql<boolean>`(${sql.join(parts, sql` or `)})`;
    }
    case "oneOf":
      return sql<boolean>`${v} not in (${sql.join(rule.values)})`;
    case "unique":
      return sql<boolean>`exists (select 1 from ${sql.table(`${context.schema}.${type.name}`)} o
        where o.${sql.id(attr.name)} = ${v} and o.entity_key_id <> ${col(alias, "entity_key_id")}
          and not o.is_deleted and not o.is_pending_new)`;
  }
}

const OPERATORS = { "<": "<", "<=": "<=", "=": "=", "<>": "<>", ">=": ">=", ">": ">" } as const;

function typeRuleSql(rule: TypeRule, alias: string): RawBuilder<boolean> {
  if (rule.kind === "compare") {
    const op = sql.raw(OPERATORS[rule.op]);
    return sql<boolean>`not (${col(alias, rule.left)} ${op} ${col(alias, rule.right)})`;
  }
  return sql<boolean>`(${col(alias, rule.when)} = ${rule.equals} and ${col(alias, rule.attribute)} is null)`;
}

/** A rule of the type with the condition a stored record (alias) breaking it meets. */
export interface RuleCondition {
  id: string;
  severity: "error" | "warning";
  breaks: RawBuilder<boolean>;
  /** How dear the condition is per row: comparisons, then lists, then patterns, then lookups. */
  cost: number;
}

const COST: Record<AttributeRule["kind"] | TypeRule["kind"], number> = {
  range: 1,
  length: 1,
  compare: 1,
  requiredWhen: 1,
  oneOf: 2,
  pattern: 3,
  unique: 4,
};

/** Every rule of a type, each with its condition; a null never counts as a breach. */
export function ruleConditions(
  context: ContextModel,
  type: EntityType,
  alias = "v",
): RuleCondition[] {
  const conditions: RuleCondition[] = [];
  for (const attr of type.attributes)
    for (const rule of attr.rules)
      conditions.push({
        id: rule.id,
        severity: rule.severity,
        breaks: sql<boolean>`coalesce(${attributeRuleSql(context, type, attr, rule, alias)}, false)`,
        cost: COST[rule.kind],
      });
  for (const rule of type.rules)
    conditions.push({
      id: rule.id,
      severity: rule.severity,
      breaks: sql<boolean>`coalesce(${typeRuleSql(rule, alias)}, false)`,
      cost: COST[rule.kind],
    });
  return conditions;
}

/**
 * The condition of a record breaking any rule of its type (false for a type without rules). The
 * cheapest conditions come first: PostgreSQL stops at the first that holds, so a row out of a
 * range is never matched against a pattern.
 */
export function breaksAnyRule(
  context: ContextModel,
  type: EntityType,
  alias = "v",
): RawBuilder<boolean> {
  const conditions = ruleConditions(context, type, alias).sort((a, b) => a.cost - b.cost);
  if (conditions.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(${sql.join(
    conditions.map((c) => c.breaks),
    sql` or `,
  )})`;
}
