import type { ColumnProfile } from "./catalog.ts";

/** Rows read of each table: a bounded sample, so a profile costs the same on any table's size. */
export const SAMPLE_ROWS = 1_000;

// Type names of MariaDB's column_type and PostgreSQL's format_type alike.
const NUMERIC =
  /^(tinyint|smallint|mediumint|int|integer|bigint|decimal|numeric|float|double|real|bit|year)\b/i;
const TEXT = /^(char|character|varchar|tinytext|text|mediumtext|longtext|enum|set)\b/i;
const TEMPORAL = /^(date|datetime|timestamp|time)\b/i;

/** The profile of one column from the sampled values (null for SQL NULL). */
export function profileOfSample(
  column: Omit<ColumnProfile, "method"> & { datatype: string },
  values: readonly unknown[],
): ColumnProfile {
  const present = values.filter((v) => v !== null && v !== undefined);
  const binary = present.some((v) => Buffer.isBuffer(v));
  const texts = binary ? [] : present.map((v) => String(v));
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  const numeric = NUMERIC.test(column.datatype);
  const orderable = numeric || TEXT.test(column.datatype) || TEMPORAL.test(column.datatype);
  const sorted = orderable
    ? [...new Set(texts)].sort((a, b) =>
        numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0,
      )
    : [];
  const { datatype: _, ...rest } = column;
  return {
    ...rest,
    method: "sample",
    nullShare: values.length > 0 ? (values.length - present.length) / values.length : null,
    distinctCount: binary ? null : counts.size,
    minValue: sorted[0] ?? null,
    maxValue: sorted.at(-1) ?? null,
    avgLength:
      TEXT.test(column.datatype) && texts.length > 0
        ? texts.reduce((sum, t) => sum + [...t].length, 0) / texts.length
        : null,
    topValues:
      binary || values.length === 0
        ? null
        : [...counts]
            .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
            .slice(0, 5)
            .map(([value, n]) => ({ value, share: n / values.length })),
  };
}
