import pg from "pg";
import type { Catalog, ColumnProfile } from "../catalog.ts";
import { profileOfSample, SAMPLE_ROWS } from "../sample-profile.ts";
import { RELATIONS } from "./catalog.ts";

// What PostgreSQL already keeps about each column of the documented tables (pg_stats, filled by
// ANALYZE, and pg_class.reltuples): one query, no row of the tables read. Values (the most common
// ones, the histogram's ends) are selected only for columns that are not sensitive; the histogram
// exists for orderable types only, so minimum and maximum are theirs (the ends of the histogram,
// which leaves out the most common values: approximate). The tables never analysed are sampled.
const STATISTICS = `
  with rels as (${RELATIONS}),
  cols as (
    select rels.schema, rels.name as object, rels.relkind, c.reltuples, a.attname, a.atttypid,
           a.attname ~* any($1::text[]) as sensitive
    from rels join pg_class c on c.oid = rels.oid
    join pg_attribute a on a.attrelid = rels.oid and a.attnum > 0 and not a.attisdropped
    where rels.relkind in ('r', 'p', 'm'))
  select cols.schema, cols.object, cols.attname as column, cols.sensitive,
    case when cols.reltuples >= 0 then cols.reltuples::bigint end as "rowCount",
    s.null_frac as "nullShare",
    case when cols.sensitive then null
         when s.n_distinct >= 0 then s.n_distinct::bigint
         when cols.reltuples > 0 then round(-s.n_distinct * cols.reltuples)::bigint end as "distinctCount",
    case when not cols.sensitive then (s.histogram_bounds::text::text[])[1] end as "minValue",
    case when not cols.sensitive then (s.histogram_bounds::text::text[])[cardinality(s.histogram_bounds::text::text[])] end as "maxValue",
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
  minValue: string | null;
  maxValue: string | null;
  avgLength: number | null;
  topValues: string[] | null;
  topShares: number[] | null;
  analysed: boolean;
}

const numberOrNull = (v: string | number | null) => (v === null ? null : Number(v));

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
  const profiles: ColumnProfile[] = rows.map((r) => ({
    schema: r.schema,
    object: r.object,
    column: r.column,
    method: r.sensitive ? "sensitive" : r.analysed ? "statistics" : "none",
    rowCount: numberOrNull(r.rowCount),
    nullShare: r.nullShare,
    distinctCount: numberOrNull(r.distinctCount),
    minValue: r.minValue,
    maxValue: r.maxValue,
    avgLength: r.avgLength,
    topValues: r.topValues
      ? r.topValues.map((value, i) => ({ value, share: r.topShares?.[i] ?? 0 }))
      : null,
  }));
  return sampleWhatIsMissing(client, catalog, profiles);
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
  const typeOf = new Map(
    catalog.elements.map((e) => [`${e.schema}\u0000${e.object}\u0000${e.name}`, e.datatype]),
  );
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
    const { rows } = await client.query<unknown[]>({
      text: `select ${indexes.map((i) => `${ident(profiles[i].column)}::text`).join(", ")} from ${ident(schema)}.${ident(object)} limit ${SAMPLE_ROWS}`,
      rowMode: "array",
    });
    // Fewer rows than the sample holds are all of them: an exact count.
    const rowCount = rows.length < SAMPLE_ROWS ? rows.length : null;
    indexes.forEach((index, n) => {
      const p = profiles[index];
      out[index] = profileOfSample(
        {
          ...p,
          rowCount: p.rowCount ?? rowCount,
          datatype: typeOf.get(`${p.schema}\u0000${p.object}\u0000${p.column}`) ?? "",
        },
        rows.map((r) => r[n]),
      );
    });
  }
  return out;
}
