import {
  type AttributeRule,
  type Comparison,
  compilePattern,
  type TypeRule,
} from "@ledgerline/contract";
import type { AttributeRuleFile, TypeRuleFile } from "../model/model.schema.ts";
import type { Attribute, DataType, EntityType } from "../model/model.ts";
import { isIsoDate } from "../records/values.ts";

// Rules as the model file gives them, turned into the checked form (contract/rules.ts) with a
// generated message where the file gives none, and the model loader's checks of them.

const NUMBER_WORDS: Record<Comparison, string> = {
  "<": "less than",
  "<=": "at most",
  "=": "equal to",
  "<>": "different from",
  ">=": "at least",
  ">": "greater than",
};
const DATE_WORDS: Record<Comparison, string> = {
  "<": "before",
  "<=": "on or before",
  "=": "the same as",
  "<>": "different from",
  ">=": "on or after",
  ">": "after",
};

function between(min: unknown, max: unknown, unit = ""): string {
  if (min !== undefined && max !== undefined) return `must be between ${min} and ${max}${unit}`;
  return min !== undefined ? `must be at least ${min}${unit}` : `must be at most ${max}${unit}`;
}

function dateRange(min: unknown, max: unknown): string {
  const words = (bound: unknown, relation: string) =>
    bound === "today" ? `${relation} today` : `${relation} ${bound}`;
  if (min !== undefined && max !== undefined) return `must be between ${min} and ${max}`;
  return min !== undefined
    ? `must not be ${words(min, "before")}`
    : `must not be ${words(max, "after")}`;
}

/** A file's attribute rule in checked form; its id names its definition (a change makes a new rule). */
export function attributeRuleOf(
  file: AttributeRuleFile,
  attr: { name: string; dataType: DataType },
): AttributeRule {
  const common = { severity: file.severity };
  const named = (id: string, generated: string) => ({
    ...common,
    id: `${attr.name} ${id}`,
    message: file.message ?? generated,
  });
  if (file.pattern !== undefined)
    return {
      kind: "pattern",
      pattern: file.pattern,
      ...named(`matches ${file.pattern}`, `must match the pattern ${file.pattern}`),
    };
  if (file.min !== undefined || file.max !== undefined) {
    const generated =
      attr.dataType === "Date" ? dateRange(file.min, file.max) : between(file.min, file.max);
    return {
      kind: "range",
      min: file.min,
      max: file.max,
      ...named(`in [${file.min ?? ""}, ${file.max ?? ""}]`, generated),
    };
  }
  if (file.minLength !== undefined || file.maxLength !== undefined)
    return {
      kind: "length",
      min: file.minLength,
      max: file.maxLength,
      ...named(
        `length in [${file.minLength ?? ""}, ${file.maxLength ?? ""}]`,
        between(file.minLength, file.maxLength, " characters long"),
      ),
    };
  if (file.oneOf !== undefined)
    return {
      kind: "oneOf",
      values: file.oneOf,
      ...named(`one of ${JSON.stringify(file.oneOf)}`, `must be one of ${file.oneOf.join(", ")}`),
    };
  return {
    kind: "unique",
    ...named("unique", "must be unique: another record already has this value"),
  };
}

/** A file's type rule in checked form; the generated message uses the attributes' names on screen. */
export function typeRuleOf(file: TypeRuleFile, attributes: readonly Attribute[]): TypeRule {
  const attr = (name: string) => attributes.find((a) => a.name === name);
  const shown = (name: string) => attr(name)?.uiName ?? name;
  const common = { severity: file.severity };
  if (file.compare) {
    const { left, op, right } = file.compare;
    const words = attr(left)?.dataType === "Date" ? DATE_WORDS : NUMBER_WORDS;
    return {
      kind: "compare",
      left,
      op,
      right,
      ...common,
      id: `${left} ${op} ${right}`,
      message: file.message ?? `must be ${words[op]} ${shown(right)}`,
    };
  }
  const { attribute, when, equals } = file.requiredWhen as NonNullable<
    TypeRuleFile["requiredWhen"]
  >;
  return {
    kind: "requiredWhen",
    attribute,
    when,
    equals,
    ...common,
    id: `${attribute} required when ${when} = ${String(equals)}`,
    message: file.message ?? `is required when ${shown(when)} is ${String(equals)}`,
  };
}

type Say = (where: string, reason: string) => void;

function checkBound(bound: unknown, attr: Attribute, at: string, say: Say): void {
  if (bound === undefined) return;
  if (attr.dataType === "Number" && typeof bound !== "number")
    say(at, `must be a number for the Number attribute '${attr.name}'`);
  if (
    attr.dataType === "Date" &&
    !(bound === "today" || (typeof bound === "string" && isIsoDate(bound)))
  )
    say(at, `must be a date (YYYY-MM-DD) or 'today' for the Date attribute '${attr.name}'`);
}

function checkOrder(
  min: number | string | undefined,
  max: number | string | undefined,
  at: string,
  say: Say,
): void {
  if (min !== undefined && max !== undefined && min !== "today" && max !== "today" && min > max)
    say(at, `min (${min}) is greater than max (${max})`);
}

/** The loader's checks of an attribute's rules: each must make sense for its data type. */
export function checkAttributeRules(attr: Attribute, where: string, say: Say): void {
  attr.rules.forEach((rule, ri) => {
    const at = `${where}.rules.${ri}`;
    if (attr.formula !== "" || attr.generated) {
      say(at, "rules apply to stored attributes, not computed ones");
      return;
    }
    switch (rule.kind) {
      case "pattern":
        if (attr.dataType !== "String")
          say(`${at}.pattern`, "a pattern applies to String attributes");
        try {
          compilePattern(rule.pattern);
        } catch (error) {
          say(`${at}.pattern`, `not a valid regular expression: ${(error as Error).message}`);
        }
        break;
      case "range":
        if (attr.dataType !== "Number" && attr.dataType !== "Date") {
          say(at, `min / max apply to Number and Date attributes, not ${attr.dataType}`);
          break;
        }
        checkBound(rule.min, attr, `${at}.min`, say);
        checkBound(rule.max, attr, `${at}.max`, say);
        checkOrder(rule.min, rule.max, at, say);
        break;
      case "length":
        if (attr.dataType !== "String")
          say(at, `minLength / maxLength apply to String attributes, not ${attr.dataType}`);
        checkOrder(rule.min, rule.max, at, say);
        break;
      case "oneOf":
        if (attr.dataType !== "String" && attr.dataType !== "Number")
          say(`${at}.oneOf`, `oneOf applies to String and Number attributes, not ${attr.dataType}`);
        else if (
          rule.values.some((v) => typeof v !== (attr.dataType === "Number" ? "number" : "string"))
        )
          say(
            `${at}.oneOf`,
            `every value must be a ${attr.dataType === "Number" ? "number" : "text"}`,
          );
        break;
      case "unique":
        if (attr.identity) say(`${at}.unique`, "an identity attribute is unique already");
        break;
    }
  });
}

const ORDERED: ReadonlySet<DataType> = new Set(["Number", "Date"]);

/** The loader's checks of a type's rules: known stored attributes, comparable types. */
export function checkTypeRules(type: EntityType, where: string, say: Say): void {
  type.rules.forEach((rule, ri) => {
    const at = `${where}.rules.${ri}`;
    const stored = (name: string, key: string): Attribute | undefined => {
      const attr = type.attributes.find((a) => a.name === name);
      if (!attr) say(`${at}.${key}`, `'${name}' is not an attribute of '${type.name}'`);
      else if (attr.formula !== "" || attr.generated)
        say(`${at}.${key}`, `'${name}' is computed; rules compare stored attributes`);
      else return attr;
      return undefined;
    };
    if (rule.kind === "compare") {
      const left = stored(rule.left, "compare.left");
      const right = stored(rule.right, "compare.right");
      if (!left || !right) return;
      if (left.dataType !== right.dataType)
        say(
          `${at}.compare`,
          `'${left.name}' (${left.dataType}) and '${right.name}' (${right.dataType}) cannot be compared`,
        );
      else if (!ORDERED.has(left.dataType) && rule.op !== "=" && rule.op !== "<>")
        say(`${at}.compare.op`, `${left.dataType} attributes compare with = or <> only`);
      return;
    }
    stored(rule.attribute, "requiredWhen.attribute");
    const when = stored(rule.when, "requiredWhen.when");
    if (!when) return;
    const fits =
      when.dataType === "Boolean"
        ? typeof rule.equals === "boolean"
        : when.dataType === "Number" || when.dataType === "Reference"
          ? typeof rule.equals === "number"
          : typeof rule.equals === "string";
    if (!fits)
      say(`${at}.requiredWhen.equals`, `is not a ${when.dataType} value of '${when.name}'`);
  });
}
