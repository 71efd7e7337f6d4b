import { OPERATORS_BY_TYPE, type RowConstraint, type ScalarValue } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import { BadRequestError } from "../errors.ts";
import type { Attribute, DataType } from "../model/model.ts";
import { foldedLikePattern } from "../search/fold.ts";

/** The operators a data type accepts. */
export function operatorsOf(dataType: DataType): readonly string[] {
  return OPERATORS_BY_TYPE[dataType];
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

function checkedValue(attr: Attribute, value: ScalarValue, operator: string): ScalarValue {
  const bad = (what: string) =>
    new BadRequestError(
      `Filter on '${attr.name}' (${operator}): ${JSON.stringify(value)} is not ${what}`,
    );
  if (value === null) {
    if (operator !== "=" && operator !== "!=") throw bad("allowed with this operator");
    return null;
  }
  switch (attr.dataType) {
    case "String":
      if (typeof value !== "string") throw bad("text");
      // A backslash escapes the next character of a Like pattern: a last one escapes nothing.
      if (operator.endsWith("Like") && /(^|[^\\])(\\\\)*\\$/.test(value))
        throw bad("a pattern: it ends with a lone \\ (write \\\\ for a backslash)");
      return value;
    case "Number":
      if (typeof value !== "number" || !Number.isFinite(value)) throw bad("a number");
      return value;
    case "Boolean":
      if (typeof value !== "boolean") throw bad("true, false or null");
      return value;
    case "Reference":
      if (typeof value !== "number" || !Number.isInteger(value)) throw bad("a key id");
      return value;
    case "Date":
      if (typeof value !== "string" || !DATE.test(value) || Number.isNaN(Date.parse(value)))
        throw bad("a date (YYYY-MM-DD)");
      return value;
  }
}

/** The ILIKE pattern of a string operator (its `!` left off); null for an equality. */
function likePattern(operator: string, value: string): string | null {
  switch (operator) {
    case "EndsWith":
      return `%${escapeLike(value)}`;
    case "Contains":
      return `%${escapeLike(value)}%`;
    case "Like":
      return value;
    default:
      return null;
  }
}

function stringCondition(
  col: RawBuilder<unknown>,
  operator: string,
  value: string,
  searchable: boolean,
): RawBuilder<boolean> {
  const positive = operator.replace("!", "");
  if (positive === "StartsWith")
    return sql<boolean>`lower(${col}) like lower(${escapeLike(value)}) || '%'`;
  const pattern = likePattern(positive, value);
  if (pattern === null) return sql<boolean>`lower(${col}) = lower(${value})`;
  if (!searchable) return sql<boolean>`${col} ilike ${pattern}`;
  // A searchable text has no trigram index of its own: the search box's, over its folded words
  // (migration 018), finds the candidates, and the ILIKE keeps the exact matches.
  const folded = ` ${foldedLikePattern(pattern)}`;
  return sql<boolean>`(app.search_fold(${col}) like ${folded} and ${col} ilike ${pattern})`;
}

function comparison(operator: string): RawBuilder<unknown> {
  return sql.raw(operator === "!=" ? "<>" : operator);
}

/**
 * The SQL condition of one constraint on an attribute reachable as `col`. Positive operators match
 * any of the values; negated ones (`!...`) match none of them, and also match empty values.
 */
export function constraintSql(
  attr: Attribute,
  col: RawBuilder<unknown>,
  constraint: RowConstraint,
): RawBuilder<boolean> {
  const { operator } = constraint;
  if (!operatorsOf(attr.dataType).includes(operator)) {
    throw new BadRequestError(
      `Unknown operator '${operator}' for '${attr.name}' (${attr.dataType}); use one of ${operatorsOf(attr.dataType).join(", ")}`,
    );
  }
  const negated = operator.startsWith("!");
  const values = constraint.values.map((v) => checkedValue(attr, v, operator));
  if (!negated && operator !== "=" && values.length !== 1 && attr.dataType !== "String") {
    throw new BadRequestError(`Filter on '${attr.name}' (${operator}) takes exactly one value`);
  }
  const conditions = values.map((value) => {
    if (value === null)
      return negated ? sql<boolean>`${col} is not null` : sql<boolean>`${col} is null`;
    if (attr.dataType === "String") {
      const positive = stringCondition(col, operator, value as string, attr.searchable);
      return negated ? sql<boolean>`(${col} is null or not (${positive}))` : positive;
    }
    const condition = sql<boolean>`${col} ${comparison(operator)} ${value}`;
    return negated ? sql<boolean>`(${col} is null or ${condition})` : condition;
  });
  return sql<boolean>`(${sql.join(conditions, negated ? sql` and ` : sql` or `)})`;
}
