import pg from "pg";
import type { Catalog, ColumnProfile } from "../catalog.ts";
import { profileOfSample, SAMPLE_ROWS } from "../sample-profile.ts";
import { codeOf, textOf } from "../source-error.ts";
import { RELATIONS } from "./catalog.ts";

// What PostgreSQL already keeps about each column of the documented tables (pg_stats, filled by
// ANALYZE, and pg_class.reltuples): one query, no row of the tables read. Values (the most common
// ones, the histogram's ends) are selected only for columns that are not sensitive; the histogram
// exists for orderable types only (numbers, text, dates and times and booleans are known to be
// orderable without one: all their values may be most common ones); minimum and maximum are the least and greatest of its ends and
// the most common values, which the histogram leaves out (both as ANALYZE saw them in its sample).
// The tables never analysed are sampled.
const STATISTICS = `
  with rels as (${RELATIONS}),
  cols as (
    select rels.schema, rels.name as object, rels.relkind, c.reltuples, a.attname, a.atttypid,
           t.typcategory in ('N', 'S', 'D', 'B') as orderable,
           a.attname ~* any($1::text[]) as sensitive
    from rels join pg_class c on c.oid = rels.oid
    join pg_attribute a on a.attrelid = rels.oid and a.attnum > 0 and not a.attisdropped
    join pg_type t on t.oid = a.atttypid
    where rels.relkind in ('r', 'p', 'm'))
  select cols.schema, cols.object, cols.attname as column, cols.sensitive,
    case when cols.reltuples >= 0 then cols.reltuples::bigint end as "rowCount",
    s.null_frac as "nullShare",
    case when cols.sensitive then null
         when s.n_distinct >= 0 then s.n_distinct::bigint
         when cols.reltuples > 0 then round(-s.n_distinct * cols.reltuples)::bigint end as "distinctCount",
    case when not cols.sensitive then (s.histogram_bounds::text::text[])[1] end as "histogramMin",
    case when not cols.sensitive then (s.histogram_bounds::text::text[])[cardinality(s.histogram_bounds::text::text[])] end as "histogramMax",
    case when not cols.sensitive and (cols.orderable or s.histogram_bounds is not null)
         then s.most_common_vals::text::text[] end as "commonValues",
    s.histogram_bounds is not null as "hasHistogram",
    (select sum(f) from unnest(s.most_common_freqs) f) as "commonShare",
    case when not cols.sensitive and cols.atttypid in ('text'::regtype, 'varchar'::regtype, 'bpchar'::regtype)
         then s.avg_width end as "avgLength",
    case when not cols.sensitive then (s.most_common_vals::text::text[])[1:5] end as "topValues",
    s.most_common_freqs[1:5] as "topShares",
    s.attname is not null as analysed
  from cols
  left join pg_stats s on s.schemaname = cols.schema and s.tablename = cols.object
    and s.attname = cols.attname and s.inherited = (cols.relkind = 'p')
  order by 1, 2, 3`;

interface StatisticsRow {
  schema: string;
  object: string;
  column: string;
  sensitive: boolean;
  rowCount: string | number | null;
  nullShare: number | null;
  distinctCount: string | number | null;
  histogramMin: string | null;
  histogramMax: string | null;
  /** Every most common value, for an orderable column only. */
  commonValues: string[] | null;
  hasHistogram: boolean;
  /** The share of rows the most common values hold together. */
  commonShare: number | null;
  avgLength: number | null;
  topValues: string[] | null;
  topShares: number[] | null;
  analysed: boolean;
}

const numberOrNull = (v: string | number | null) => (v === null ? null : Number(v));

/**
 * Whether the statistics hold every value's place: a histogram (with the most common values
 * beside it), or most common values that, with the nulls, are all the rows ANALYZE saw.
 */
const rangeKnown = (r: StatisticsRow) =>
  r.hasHistogram || (r.commonShare ?? 0) + (r.nullShare ?? 0) > 0.999;

const NUMERIC_TYPE = /^(smallint|integer|bigint|numeric|decimal|real|double precision)\b/;

/**
 * The least and greatest of the histogram's ends and the most common values, compared as the
 * column's type orders them: numbers as numbers ('NaN' above all, as PostgreSQL sorts it), other
 * types by their text, which orders dates and times and, near enough, text.
 */
export function valueRange(
  datatype: string,
  values: readonly (string | null)[],
): { min: string | null; max: string | null } {
  const present = values.filter((v): v is string => v !== null);
  if (present.length === 0) return { min: null, max: null };
  const asNumber = (v: string) => (v === "NaN" ? Number.POSITIVE_INFINITY : Number(v));
  const compare = NUMERIC_TYPE.test(datatype)
    ? (a: string, b: string) =>
        asNumber(a) === asNumber(b) ? 0 : asNumber(a) < asNumber(b) ? -1 : 1
    : (a: string, b: string) => a.localeCompare(b);
  const sorted = [...present].sort(compare);
  return { min: sorted[0], max: sorted[sorted.length - 1] };
}

const columnKey = (c: { schema: string; object: string; column: string }) =>
  `${c.schema}\u0000${c.object}\u0000${c.column}`;

/** Each column's type as the catalog read it, by columnKey. */
const columnTypes = (catalog: Catalog) =>
  new Map(
    catalog.elements.map((e) => [
      columnKey({ schema: e.schema, object: e.object, column: e.name }),
      e.datatype,
    ]),
  );

/**
 * The profiles of every column of the documented tables, from PostgreSQL's statistics, and for
 * the columns that have none (a table never analysed), from a sample.
 */
export async function readPostgresProfiles(
  client: pg.Client,
  catalog: Catalog,
  sensitive: readonly string[],
): Promise<ColumnProfile[]> {
  const { rows } = await client.query<StatisticsRow>(STATISTICS, [sensitive]);
  const typeOf = columnTypes(catalog);
  const profiles: ColumnProfile[] = rows.map((r) => {
    const range = valueRange(
      typeOf.get(columnKey(r)) ?? "",
      rangeKnown(r) ? [r.histogramMin, r.histogramMax, ...(r.commonValues ?? [])] : [],
    );
    return {
      schema: r.schema,
      object: r.object,
      column: r.column,
      method: r.sensitive ? "sensitive" : r.analysed ? "statistics" : "none",
      rowCount: numberOrNull(r.rowCount),
      nullShare: r.nullShare,
      distinctCount: numberOrNull(r.distinctCount),
      minValue: range.min,
      maxValue: range.max,
      avgLength: r.avgLength,
      topValues: r.topValues
        ? r.topValues.map((value, i) => ({ value, share: r.topShares?.[i] ?? 0 }))
        : null,
    };
  });
  return sampleWhatIsMissing(client, catalog, profiles);
}

/**
 * A sample's rows, or null when its table was dropped after the catalog was read (its name gone,
 * or its relation gone while the sample waited for the lock of the statement dropping it).
 */
async function sampleRows(client: pg.Client, text: string): Promise<unknown[][] | null> {
  try {
    return (await client.query<unknown[]>({ text, rowMode: "array" })).rows;
  } catch (error) {
    if (codeOf(error) === "42P01" || /^could not open relation with OID/.test(textOf(error)))
      return null;
    throw error;
  }
}

/**
 * Replaces the profiles without statistics by ones from the table's first SAMPLE_ROWS rows: one
 * plain SELECT a table (the lock any SELECT takes), naming only those columns, as text.
 */
async function sampleWhatIsMissing(
  client: pg.Client,
  catalog: Catalog,
  profiles: ColumnProfile[],
): Promise<ColumnProfile[]> {
  const typeOf = columnTypes(catalog);
  const missing = new Map<string, number[]>();
  profiles.forEach((p, i) => {
    if (p.method !== "none") return;
    const key = `${p.schema}\u0000${p.object}`;
    missing.set(key, [...(missing.get(key) ?? []), i]);
  });
  const out = [...profiles];
  for (const indexes of missing.values()) {
    const { schema, object } = profiles[indexes[0]];
    const ident = pg.escapeIdentifier;
    const rows = await sampleRows(
      client,
      `select ${indexes.map((i) => `${ident(profiles[i].column)}::text`).join(", ")} from ${ident(schema)}.${ident(object)} limit ${SAMPLE_ROWS}`,
    );
    // Dropped since the catalog was read: its profiles stay empty, the next import finds it gone.
    if (rows === null) continue;
    // Fewer rows than the sample holds are all of them: an exact count.
    const rowCount = rows.length < SAMPLE_ROWS ? rows.length : null;
    indexes.forEach((index, n) => {
      const p = profiles[index];
      out[index] = profileOfSample(
        {
          ...p,
          rowCount: p.rowCount ?? rowCount,
          datatype: typeOf.get(columnKey(p)) ?? "",
        },
        rows.map((r) => r[n]),
      );
    });
  }
  return out;
}
