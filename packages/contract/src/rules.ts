import { RE2JS } from "re2js";
import { z } from "zod";

/**
 * Data quality rules, as the model declares them and as the server and the web check them: one
 * implementation, so a modal fails live with exactly the message a save, an upload or an import
 * would answer. Patterns run on RE2 (re2js), whose matching time is linear in the input: no
 * pattern, however written, can backtrack catastrophically.
 */

export const SEVERITIES = ["error", "warning"] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

export const COMPARISONS = ["<", "<=", "=", "<>", ">=", ">"] as const;
export const Comparison = z.enum(COMPARISONS);
export type Comparison = z.infer<typeof Comparison>;

/** What every rule has: a stable text naming it (its definition), the message to show, its severity. */
const RuleBase = {
  id: z.string(),
  message: z.string(),
  severity: Severity,
};

/** A bound of a range: a number, a YYYY-MM-DD date, or `today` (Date attributes). */
export const Bound = z.union([z.number(), z.string()]);
export type Bound = z.infer<typeof Bound>;

export const AttributeRule = z.discriminatedUnion("kind", [
  /** The whole value matches the regular expression (RE2 syntax). */
  z.object({ kind: z.literal("pattern"), pattern: z.string(), ...RuleBase }),
  z.object({ kind: z.literal("range"), min: Bound.optional(), max: Bound.optional(), ...RuleBase }),
  z.object({
    kind: z.literal("length"),
    min: z.number().int().optional(),
    max: z.number().int().optional(),
    ...RuleBase,
  }),
  z.object({
    kind: z.literal("oneOf"),
    values: z.array(z.union([z.string(), z.number()])),
    ...RuleBase,
  }),
  /** Unique among the type's live records; checked by the server, which sees them all. */
  z.object({ kind: z.literal("unique"), ...RuleBase }),
]);
export type AttributeRule = z.infer<typeof AttributeRule>;

export const TypeRule = z.discriminatedUnion("kind", [
  /** `left op right`, when both are set. */
  z.object({
    kind: z.literal("compare"),
    left: z.string(),
    op: Comparison,
    right: z.string(),
    ...RuleBase,
  }),
  /** `attribute` must be set when `when` equals `equals`. */
  z.object({
    kind: z.literal("requiredWhen"),
    attribute: z.string(),
    when: z.string(),
    equals: z.union([z.string(), z.number(), z.boolean()]),
    ...RuleBase,
  }),
]);
export type TypeRule = z.infer<typeof TypeRule>;

/** A rule a value or record breaks: the attribute to show it on, and what to say. */
export const RuleBreach = z.object({
  attribute: z.string(),
  rule: z.string(),
  message: z.string(),
  severity: Severity,
});
export type RuleBreach = z.infer<typeof RuleBreach>;

/** What the checks need to know of an attribute. */
export interface RuleAttribute {
  readonly name: string;
  readonly uiName: string;
  readonly dataType: string;
  readonly rules: readonly AttributeRule[];
}

type Value = string | number | boolean | null | undefined;

const NONE: readonly RuleBreach[] = Object.freeze([]);
const compiled = new Map<string, RE2JS>();

/** Compiles a rule's pattern (cached); throws RE2's syntax message when it is not valid. */
export function compilePattern(pattern: string): RE2JS {
  let re = compiled.get(pattern);
  if (!re) {
    re = RE2JS.compile(pattern);
    compiled.set(pattern, re);
  }
  return re;
}

/** Today's date, YYYY-MM-DD, in UTC: what `today` means in a range. */
export function todayIso(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A range bound as a comparable value: `today` becomes the date. */
export function boundValue(bound: Bound): number | string {
  return bound === "today" ? todayIso() : bound;
}

function isEmpty(value: Value): value is null | undefined | "" {
  return value === null || value === undefined || value === "";
}

function breaksValueRule(rule: AttributeRule, value: string | number | boolean): boolean {
  switch (rule.kind) {
    case "pattern":
      return !compilePattern(rule.pattern).matches(String(value));
    case "range":
      return (
        (rule.min !== undefined && value < boundValue(rule.min)) ||
        (rule.max !== undefined && value > boundValue(rule.max))
      );
    case "length": {
      // Characters as a person counts them (code points), as PostgreSQL's char_length does.
      const length = [...String(value)].length;
      return (
        (rule.min !== undefined && length < rule.min) ||
        (rule.max !== undefined && length > rule.max)
      );
    }
    case "oneOf":
      return !rule.values.some((allowed) => String(allowed) === String(value));
    case "unique":
      return false;
  }
}

/**
 * The rules a converted value breaks (unique aside, which needs the stored records). An empty
 * value breaks none: whether one is required is the attribute's nullability.
 */
export function valueBreaches(attr: RuleAttribute, value: Value): readonly RuleBreach[] {
  if (attr.rules.length === 0 || isEmpty(value)) return NONE;
  let breaches: RuleBreach[] | undefined;
  for (const rule of attr.rules) {
    if (!breaksValueRule(rule, value)) continue;
    breaches ??= [];
    breaches.push({
      attribute: attr.name,
      rule: rule.id,
      message: rule.message,
      severity: rule.severity,
    });
  }
  return breaches ?? NONE;
}

/**
 * The message of the first error rule a value breaks, in the order they are declared, or
 * undefined. Stops there: a refusal names one rule per value, and a long value is not run through
 * the patterns after the one it already breaks.
 */
export function firstValueError(attr: RuleAttribute, value: Value): string | undefined {
  if (isEmpty(value)) return undefined;
  return attr.rules.find((rule) => rule.severity === "error" && breaksValueRule(rule, value))
    ?.message;
}

function compare(
  left: string | number | boolean,
  op: Comparison,
  right: string | number | boolean,
): boolean {
  switch (op) {
    case "<":
      return left < right;
    case "<=":
      return left <= right;
    case "=":
      return left === right;
    case "<>":
      return left !== right;
    case ">=":
      return left >= right;
    case ">":
      return left > right;
  }
}

/** Whether a record breaks a rule between its attributes; values by attribute name. */
export function breaksTypeRule(rule: TypeRule, values: (name: string) => Value): boolean {
  if (rule.kind === "compare") {
    const left = values(rule.left);
    const right = values(rule.right);
    return !isEmpty(left) && !isEmpty(right) && !compare(left, rule.op, right);
  }
  const when = values(rule.when);
  return !isEmpty(when) && String(when) === String(rule.equals) && isEmpty(values(rule.attribute));
}

/** The attributes a type rule reads. */
export function typeRuleAttributes(rule: TypeRule): string[] {
  return rule.kind === "compare" ? [rule.left, rule.right] : [rule.attribute, rule.when];
}

/** The attribute a type rule's breach is shown on. */
export function typeRuleAttribute(rule: TypeRule): string {
  return rule.kind === "compare" ? rule.left : rule.attribute;
}

/** The rules between attributes a record breaks. */
export function recordBreaches(
  rules: readonly TypeRule[],
  values: (name: string) => Value,
): readonly RuleBreach[] {
  let breaches: RuleBreach[] | undefined;
  for (const rule of rules) {
    if (!breaksTypeRule(rule, values)) continue;
    breaches ??= [];
    breaches.push({
      attribute: typeRuleAttribute(rule),
      rule: rule.id,
      message: rule.message,
      severity: rule.severity,
    });
  }
  return breaches ?? NONE;
}

/** Every rule a whole record breaks (unique aside): its values' and those between its attributes. */
export function checkRecord(
  type: { readonly attributes: readonly RuleAttribute[]; readonly rules: readonly TypeRule[] },
  record: Readonly<Record<string, Value>>,
): RuleBreach[] {
  const breaches: RuleBreach[] = [];
  for (const attr of type.attributes) breaches.push(...valueBreaches(attr, record[attr.name]));
  breaches.push(...recordBreaches(type.rules, (name) => record[name]));
  return breaches;
}
