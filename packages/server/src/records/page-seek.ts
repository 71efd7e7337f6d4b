import type { DataType, PageBoundary, PageSeek } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import { BadRequestError } from "../errors.ts";
import { SQL_TYPES } from "../model/sync/ddl.ts";
import { isIsoDate } from "./values.ts";

/** One term of a list's order; the record id comes after the terms and breaks their ties. */
export interface OrderTerm {
  /** The sorted expression over the row `v`. */
  expr: RawBuilder<unknown>;
  asc: boolean;
  /** The type of the expression: its text form in a page's bounds is cast back to it. */
  dataType: DataType;
  /** For messages: the attribute, or 'the label'. */
  name: string;
}

/** A seek checked against the list it pages through. */
type Seek =
  | { from: "after" | "before"; boundary: PageBoundary; skipPages: number }
  | { from: "last" };

/** A list's rows matching a condition, in an order, cut by a limit; `part` leads the select list. */
export type RowsSql = (
  condition: RawBuilder<boolean>,
  order: RawBuilder<unknown>,
  limit: RawBuilder<unknown>,
  part?: RawBuilder<unknown>,
) => RawBuilder<Record<string, unknown>>;

export interface PageSql {
  /** The page of rows: system columns, attribute values `c<n>`, reference labels `l<n>`, `record_label`. */
  page: RawBuilder<Record<string, unknown>>;
  /** The page's rows come in reverse list order (read from the end or before a boundary). */
  reversed: boolean;
  /**
   * The last page, read from the end: its rows are the first `querySize - (pageNum - 1) * pageSize`
   * of the reversed read, and `byOffset` reads the page when the count says it is not the last.
   */
  fromEnd?: { pageNum: number; pageSize: number; byOffset: RawBuilder<Record<string, unknown>> };
}

/**
 * A page by its offset (pageSize 0: every row, at most `allRows` when given), or reached by a seek
 * from a neighbouring page.
 */
export function pageSql(
  rows: RowsSql,
  terms: readonly OrderTerm[],
  paging: { size: number; pageNum: number; offset: number; allRows?: number },
  requested: PageSeek | undefined,
): PageSql {
  const { size, pageNum, offset, allRows } = paging;
  const key = sql.ref("v.entity_key_id");
  const whole = sql<boolean>`true`;
  const limit =
    size > 0
      ? sql`limit ${rowCount(size)} offset ${rowCount(offset)}`
      : allRows === undefined
        ? sql``
        : sql`limit ${rowCount(allRows)}`;
  const byOffset = rows(whole, orderBySql(terms, key), limit);
  const seek = requested && checkedSeek(requested, terms, size);
  if (!seek) return { page: byOffset, reversed: false };
  if (seek.from === "last") {
    const page = rows(whole, orderBySql(terms, key, true), sql`limit ${rowCount(size)}`);
    return { page, reversed: true, fromEnd: { pageNum, pageSize: size, byOffset } };
  }
  // Each part past the boundary is read in its index order and cut at the rows the page can need;
  // the parts follow each other in list order, so their union sorted by part is the list from there.
  const reversed = seek.from === "before";
  const need = (seek.skipPages + 1) * size;
  const parts = partsPast(terms, seek.boundary, reversed).map((condition, i) => {
    const part = sql.raw(`${i} as seek_part,`);
    const limit = sql`limit ${rowCount(need)}`;
    return sql`(${rows(condition, orderBySql(terms, key, reversed), limit, part)})`;
  });
  const page = sql<Record<string, unknown>>`
    select * from (${sql.join(parts, sql` union all `)}) as parts
    order by seek_part, ${orderBySql(selectedTerms(terms), sql.ref("entity_key_id"), reversed)}
    limit ${rowCount(size)} offset ${rowCount(seek.skipPages * size)}`;
  return { page, reversed };
}

/**
 * A page's row count as a literal, not a parameter: PostgreSQL plans a statement with a parameter
 * limit for an unknown share of the rows, so a prepared page (StatementCache) would keep being
 * planned anew; with the count in its text, its generic plan is the one a page gets anyway.
 */
function rowCount(n: number): RawBuilder<unknown> {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return sql.lit(n);
}

/** The text forms PostgreSQL gives each type (`::text`): what a boundary row may carry back. */
const TEXT_FORMS: Readonly<Record<DataType, (text: string) => boolean>> = {
  String: () => true,
  Number: (text) => /^(-?\d+(\.\d+)?|NaN|-?Infinity)$/.test(text),
  Boolean: (text) => text === "true" || text === "false",
  Date: isIsoDate,
  Reference: (text) => /^\d{1,19}$/.test(text),
};

const sqlType = (term: OrderTerm) => sql.raw(SQL_TYPES[term.dataType]);

/**
 * `order by` of a list: its terms, then the record id. Reversed, every direction flips, which reads
 * the list exactly backwards: PostgreSQL sorts nulls last going up and first going down, so a
 * null stands above every value either way.
 */
function orderBySql(
  terms: readonly OrderTerm[],
  key: RawBuilder<unknown>,
  reversed = false,
): RawBuilder<unknown> {
  const direction = (asc: boolean) => sql.raw(asc !== reversed ? "asc" : "desc");
  return sql.join([
    ...terms.map((t) => sql`${t.expr} ${direction(t.asc)}`),
    sql`${key} ${direction(true)}`,
  ]);
}

/** The terms' values as text, selected as s0, s1...: what a page answers as its bounds. */
export function orderValuesSql(terms: readonly OrderTerm[]): RawBuilder<unknown>[] {
  return terms.map((t, i) => sql`${t.expr}::text as ${sql.id(`s${i}`)}`);
}

/** The same terms over the columns orderValuesSql selected (an outer query's order). */
function selectedTerms(terms: readonly OrderTerm[]): OrderTerm[] {
  return terms.map((t, i) => ({ ...t, expr: sql`${sql.ref(`s${i}`)}::${sqlType(t)}` }));
}

/** The row's bounds entry: its order values as selected by orderValuesSql, and its id. */
export function boundaryOf(row: Record<string, unknown>, terms: number): PageBoundary {
  return {
    orderValues: Array.from({ length: terms }, (_, i) => {
      const value = row[`s${i}`];
      return value === null || value === undefined ? null : String(value);
    }),
    entityKeyID: Number(row.entity_key_id),
  };
}

/** The seek of a request, refused (400) when it cannot be a boundary of this list. */
function checkedSeek(seek: PageSeek, terms: readonly OrderTerm[], pageSize: number): Seek {
  const given = [seek.after, seek.before, seek.last || undefined].filter((s) => s !== undefined);
  if (given.length !== 1) throw new BadRequestError("seek: give one of after, before and last");
  if (pageSize === 0)
    throw new BadRequestError("seek: a list of every row (pageSize 0) has no pages to seek");
  if (seek.last) {
    if (seek.skipPages) throw new BadRequestError("seek: skipPages goes with after or before");
    return { from: "last" };
  }
  const boundary = (seek.after ?? seek.before) as PageBoundary;
  if (boundary.orderValues.length !== terms.length)
    throw new BadRequestError(
      `seek: the boundary row has ${boundary.orderValues.length} sort values, the list is sorted by ${terms.length}`,
    );
  boundary.orderValues.forEach((text, i) => {
    const term = terms[i];
    if (text !== null && !TEXT_FORMS[term.dataType](text))
      throw new BadRequestError(
        `seek: ${JSON.stringify(text)} is not a ${term.dataType} value for '${term.name}'`,
      );
  });
  return { from: seek.after ? "after" : "before", boundary, skipPages: seek.skipPages ?? 0 };
}

/**
 * The rows past a boundary row (after it; before it when reversed), as conditions that follow each
 * other in list order: the rows tied with it on every term with a greater id, then, from the last
 * term to the first, the rows tied on the terms before it and past it on that term (non-null values
 * past it, then nulls). Each is one range of an index on its term, where the single condition
 * `(a, id) > (x, k)` with nulls would make PostgreSQL read the index from its start.
 */
function partsPast(
  terms: readonly OrderTerm[],
  boundary: PageBoundary,
  reversed: boolean,
): RawBuilder<boolean>[] {
  const { orderValues } = boundary;
  const value = (i: number) => sql`${orderValues[i]}::${sqlType(terms[i])}`;
  const tied = (i: number) =>
    orderValues[i] === null
      ? sql<boolean>`${terms[i].expr} is null`
      : sql<boolean>`${terms[i].expr} = ${value(i)}`;
  const within = (i: number, past: RawBuilder<boolean>) =>
    sql<boolean>`${sql.join([...terms.slice(0, i).map((_, j) => tied(j)), past], sql` and `)}`;
  const parts = [
    within(
      terms.length,
      sql<boolean>`v.entity_key_id ${sql.raw(reversed ? "<" : ">")} ${boundary.entityKeyID}`,
    ),
  ];
  for (let i = terms.length - 1; i >= 0; i--) {
    const { expr, asc } = terms[i];
    const up = asc !== reversed;
    const past =
      orderValues[i] === null
        ? up
          ? []
          : [sql<boolean>`${expr} is not null`]
        : up
          ? [sql<boolean>`${expr} > ${value(i)}`, sql<boolean>`${expr} is null`]
          : [sql<boolean>`${expr} < ${value(i)}`];
    parts.push(...past.map((p) => within(i, p)));
  }
  return parts;
}
