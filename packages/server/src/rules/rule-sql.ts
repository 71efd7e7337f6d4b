import { type AttributeRule, type TypeRule, typeRuleAttribute } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";

// Rules as SQL conditions on stored records (alias `v`): what the 'Breaks a rule' filter of the
// explorer and the start-up count of breaches ask. They state the checks of contract/rules.ts
// over a whole table at once; patterns are anchored as RE2's full match is, and run on
// PostgreSQL's own engine (the model's patterns are checked to compile there at start-up).

const col = (alias: string, name: string) => sql.ref(`${alias}.${name}`);

function bound(attr: Attribute, value: number | string): RawBuilder<unknown> {
  if (attr.dataType !== "Date") return sql`${value}`;
  // `today` is the UTC date, as the checker's (contract/rules.ts), whatever the session's time zone.
  return value === "today" ? sql`(now() at time zone 'UTC')::date` : sql`${value}::date`;
}

// RE2's Perl classes are ASCII; PostgreSQL's follow the locale. Spelled out, they mean the same.
const CLASSES: Record<string, string> = { d: "0-9", w: "0-9A-Za-z_", s: "\\t\\n\\f\\r " };

/**
 * A rule's pattern as PostgreSQL must run it to match what RE2 matches: anchored (RE2's full
 * match), `.` never matching a newline, `\d \w \s` (and their negations) as ASCII sets, `\b \B` as
 * PostgreSQL's `\y \Y`, a leading `(?i)` kept in front. Throws for what has no equal (`\D` inside
 * brackets); what PostgreSQL cannot compile at all is found at start-up.
 */
export function postgresPattern(pattern: string): string {
  const lead = /^\(\?i\)/.exec(pattern);
  const body = lead ? pattern.slice(lead[0].length) : pattern;
  let out = "";
  let inBracket = false;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c === "\\" && i + 1 < body.length) {
      const next = body[++i];
      const set = CLASSES[next.toLowerCase()];
      if (set !== undefined && inBracket) {
        if (next !== next.toLowerCase())
          throw new Error(`\\${next} inside [...] has no PostgreSQL equal`);
        out += set;
      } else if (set !== undefined) out += next === next.toLowerCase() ? `[${set}]` : `[^${set}]`;
      else if (!inBracket && (next === "b" || next === "B")) out += next === "b" ? "\\y" : "\\Y";
      else out += `\\${next}`;
    } else if (!inBracket && c === "[") {
      inBracket = true;
      out += c;
      if (body[i + 1] === "^") out += body[++i];
      if (body[i + 1] === "]") out += body[++i];
    } else if (inBracket && c === "[" && body[i + 1] === ":" && body.indexOf(":]", i + 2) > 0) {
      const end = body.indexOf(":]", i + 2) + 2;
      out += body.slice(i, end);
      i = end - 1;
    } else {
      if (inBracket && c === "]") inBracket = false;
      out += !inBracket && c === "." ? "[^\\n]" : c;
    }
  }
  return `${lead ? lead[0] : ""}^(?:${out})$`;
}

function attributeRuleSql(
  context: ContextModel,
  type: EntityType,
  attr: Attribute,
  rule: AttributeRule,
  alias: string,
  records: RawBuilder<unknown> | undefined,
): RawBuilder<boolean> {
  const v = col(alias, attr.name);
  switch (rule.kind) {
    case "pattern":
      return sql<boolean>`${v} !~ ${postgresPattern(rule.pattern)}`;
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
      return sql<boolean>`exists (select 1 from ${records ?? sql.table(`${context.schema}.${type.name}`)} o
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
  kind: AttributeRule["kind"] | TypeRule["kind"];
  /** The attribute a breach is reported on (a rule between attributes: its first). */
  attribute: string;
  severity: "error" | "warning";
  message: string;
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

/**
 * Every rule of a type, each with its condition; a null never counts as a breach. `records`: what
 * a unique value is compared with (the table; a past moment's records in a list as of then).
 */
export function ruleConditions(
  context: ContextModel,
  type: EntityType,
  alias = "v",
  records?: RawBuilder<unknown>,
): RuleCondition[] {
  const conditions: RuleCondition[] = [];
  for (const attr of type.attributes)
    for (const rule of attr.rules)
      conditions.push({
        id: rule.id,
        kind: rule.kind,
        attribute: attr.name,
        severity: rule.severity,
        message: rule.message,
        breaks: sql<boolean>`coalesce(${attributeRuleSql(context, type, attr, rule, alias, records)}, false)`,
        cost: COST[rule.kind],
      });
  for (const rule of type.rules)
    conditions.push({
      id: rule.id,
      kind: rule.kind,
      attribute: typeRuleAttribute(rule),
      severity: rule.severity,
      message: rule.message,
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
  records?: RawBuilder<unknown>,
): RawBuilder<boolean> {
  const conditions = ruleConditions(context, type, alias, records).sort((a, b) => a.cost - b.cost);
  if (conditions.length === 0) return sql<boolean>`false`;
  return sql<boolean>`(${sql.join(
    conditions.map((c) => c.breaks),
    sql` or `,
  )})`;
}
