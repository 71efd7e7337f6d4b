import {
  type AttributeInfo,
  breaksTypeRule,
  type EntityTypeInfo,
  type ScalarValue,
  typeRuleAttribute,
  typeRuleAttributes,
  valueBreaches,
} from "@ledgerline/contract";

/** What the rule checks of a form need to know of its type. */
export type RuleType = Pick<EntityTypeInfo, "attributes" | "rules">;

/** A rule as a form shows it: its id (to pair a hint with its breach) and its message. */
export interface RuleNote {
  id: string;
  message: string;
  /** A rule between attributes (the type's), not one of the field's own. */
  between: boolean;
}

export interface RuleHint extends RuleNote {
  /** Unique: only the server, which sees every record, can check it. */
  checkedOnSave: boolean;
}

/** The rules one field breaks, as the form shows them under it. */
export interface FieldRules {
  /** Error rules the change breaks: invalid feedback; the form's OK waits until they hold. */
  errors: RuleNote[];
  /** Error rules the stored record already breaks and the change leaves alone: shown only. */
  stored: RuleNote[];
  /** Warnings never refuse a change; the approver sees them. */
  warnings: RuleNote[];
}

export interface RuleCheck {
  /** By attribute name; only fields that break a rule. */
  fields: Record<string, FieldRules>;
  /** An error rule fails that the save would be refused for. */
  blocked: boolean;
}

export type RecordValues = Readonly<Record<string, ScalarValue | undefined>>;

/** Whether a type declares any rule (its own or its attributes'). */
export function hasRules(type: RuleType): boolean {
  return type.rules.length > 0 || type.attributes.some((a) => a.rules.length > 0);
}

/** The rules a field's hint lists: its own, and those between attributes shown on it. */
export function ruleHints(type: RuleType, attr: AttributeInfo): RuleHint[] {
  return [
    ...attr.rules.map((rule) => ({
      id: rule.id,
      message: rule.message,
      between: false,
      checkedOnSave: rule.kind === "unique",
    })),
    ...type.rules
      .filter((rule) => typeRuleAttribute(rule) === attr.name)
      .map((rule) => ({ id: rule.id, message: rule.message, between: true, checkedOnSave: false })),
  ];
}

/**
 * Runs the shared checker on a record's values as the form would save them (converted: numbers
 * as numbers, dates as YYYY-MM-DD, empty as null). Without `changed` (a new record) every error
 * refuses; when editing, only errors the change takes part in do: a value rule on a changed field,
 * a rule between attributes one of which changed. Others are what the stored record breaks already.
 */
export function checkRules(
  type: RuleType,
  values: RecordValues,
  changed?: ReadonlySet<string>,
): RuleCheck {
  const fields: Record<string, FieldRules> = {};
  let blocked = false;
  const note = (
    name: string,
    severity: "error" | "warning",
    rule: RuleNote,
    counts: boolean,
  ): void => {
    fields[name] ??= { errors: [], stored: [], warnings: [] };
    if (severity === "warning") fields[name].warnings.push(rule);
    else if (counts) {
      fields[name].errors.push(rule);
      blocked = true;
    } else fields[name].stored.push(rule);
  };

  for (const attr of type.attributes) {
    for (const breach of valueBreaches(attr, values[attr.name])) {
      const rule = { id: breach.rule, message: breach.message, between: false };
      note(attr.name, breach.severity, rule, changed === undefined || changed.has(attr.name));
    }
  }
  for (const rule of type.rules) {
    if (!breaksTypeRule(rule, (name) => values[name])) continue;
    const counts =
      changed === undefined || typeRuleAttributes(rule).some((name) => changed.has(name));
    const shown = { id: rule.id, message: rule.message, between: true };
    note(typeRuleAttribute(rule), rule.severity, shown, counts);
  }
  return { fields, blocked };
}

const NO_RULES: FieldRules = Object.freeze({ errors: [], stored: [], warnings: [] });

/** A field's share of a check (nothing when it breaks no rule). */
export function rulesOf(check: RuleCheck, name: string): FieldRules {
  return check.fields[name] ?? NO_RULES;
}

/** How a field shows one of its rules right now. */
export type RuleLineState = "error" | "stored" | "warning" | "hint";

/** One line under a field: a rule and how it shows. */
export type RuleLine =
  | { state: Exclude<RuleLineState, "hint">; rule: RuleNote }
  | { state: "hint"; rule: RuleHint };

const ruleKey = (rule: RuleNote): string => `${rule.between}|${rule.id}`;

/**
 * The lines under a field, one per rule, in the order its hints declare them: a rule the field
 * breaks takes the place of its hint, so lines keep their place as their state changes and only
 * their look follows it. Breaches without a hint (none today) come first: errors, then those the
 * stored record broke already, then warnings.
 */
export function ruleLines(hints: readonly RuleHint[], rules: FieldRules): RuleLine[] {
  const broken = new Map<string, RuleLine>();
  for (const [state, list] of [
    ["error", rules.errors],
    ["stored", rules.stored],
    ["warning", rules.warnings],
  ] as const)
    for (const rule of list)
      if (!broken.has(ruleKey(rule))) broken.set(ruleKey(rule), { state, rule });
  const hinted = new Set(hints.map(ruleKey));
  return [
    ...[...broken].filter(([key]) => !hinted.has(key)).map(([, line]) => line),
    ...hints.map((hint): RuleLine => broken.get(ruleKey(hint)) ?? { state: "hint", rule: hint }),
  ];
}

/** Breaches shown on an attribute the form has no field for (a generated one, say). */
export function rulesElsewhere(
  check: RuleCheck,
  attributes: readonly AttributeInfo[],
  shown: ReadonlySet<string>,
): { label: string; rules: FieldRules }[] {
  return Object.entries(check.fields)
    .filter(([name]) => !shown.has(name))
    .map(([name, rules]) => ({
      label: attributes.find((a) => a.name === name)?.uiName ?? name,
      rules,
    }));
}
