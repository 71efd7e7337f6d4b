import {
  breaksTypeRule,
  type TypeRule,
  typeRuleAttribute,
  typeRuleAttributes,
  valueBreaches,
} from "@ledgerline/contract";
import type { IngestValue } from "../ingest/row-converter.ts";
import type { RuleProblem } from "../ingest/rows.ts";
import type { Attribute, EntityType } from "../model/model.ts";

// The error rules of rows read in the flat form of a RowChunk (values of `attributes`, row after
// row): an upload's rows in its parser thread, a metadata import's rows. Warnings never refuse a
// row; the approver sees them on the pending screen. Each problem names the attributes the rule
// reads: it counts only where the row sets one of them (ingest/rule-breaking.ts).

const NONE: readonly RuleProblem[] = Object.freeze([]);

// A reference not yet resolved counts by the text given.
const scalar = (v: IngestValue | undefined) =>
  v === null || v === undefined ? null : typeof v === "object" ? v.ref : v;

/** The error rules between attributes a row breaks; value rules are the converter's. */
export function typeRuleProblems(
  type: Pick<EntityType, "rules">,
  attributes: readonly Attribute[],
  values: readonly IngestValue[],
  at: number,
  columnName: (attr: Attribute) => string,
): readonly RuleProblem[] {
  let problems: RuleProblem[] | undefined;
  for (const rule of type.rules) {
    if (rule.severity !== "error") continue;
    if (!breaksTypeRule(rule, (name) => cellValue(attributes, values, at, name))) continue;
    problems ??= [];
    problems.push({
      column: shownColumn(rule, attributes, columnName),
      message: rule.message,
      attributes: typeRuleAttributes(rule),
    });
  }
  return problems ?? NONE;
}

/** Every error rule a row of converted values breaks (unique aside): its values' and its type's. */
export function ruleProblems(
  type: Pick<EntityType, "rules">,
  attributes: readonly Attribute[],
  values: readonly IngestValue[],
  at: number,
  columnName: (attr: Attribute) => string,
): readonly RuleProblem[] {
  const problems: RuleProblem[] = [];
  attributes.forEach((attr, i) => {
    for (const breach of valueBreaches(attr, scalar(values[at + i])))
      if (breach.severity === "error")
        problems.push({
          column: columnName(attr),
          message: breach.message,
          attributes: [attr.name],
        });
  });
  problems.push(...typeRuleProblems(type, attributes, values, at, columnName));
  return problems.length > 0 ? problems : NONE;
}

function cellValue(
  attributes: readonly Attribute[],
  values: readonly IngestValue[],
  at: number,
  name: string,
) {
  const i = attributes.findIndex((a) => a.name === name);
  return i < 0 ? null : scalar(values[at + i]);
}

function shownColumn(
  rule: TypeRule,
  attributes: readonly Attribute[],
  columnName: (attr: Attribute) => string,
) {
  const name = typeRuleAttribute(rule);
  const attr = attributes.find((a) => a.name === name);
  return attr ? columnName(attr) : name;
}
