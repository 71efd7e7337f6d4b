import type { Connection, RowDataPacket } from "mysql2/promise";
import { type Catalog, type ColumnProfile, emptyProfile } from "../catalog.ts";
import { isSensitive } from "../sensitive-columns.ts";

/** Rows read of each table: a bounded sample, so a profile costs the same on any table's size. */
export const SAMPLE_ROWS = 1_000;

const NUMERIC =
  /^(tinyint|smallint|mediumint|int|bigint|decimal|numeric|float|double|real|bit|year)\b/i;
const TEXT = /^(char|varchar|tinytext|text|mediumtext|longtext|enum|set)\b/i;
const TEMPORAL = /^(date|datetime|timestamp|time)\b/i;

const quote = (name: string) => `\`${name.replaceAll("`", "``")}\``;

/** The profile of one column from the sampled values (null for SQL NULL). */
function profileOf(
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

/**
 * Profiles the columns of each table from a sample of its first SAMPLE_ROWS rows: one plain
 * SELECT a table (InnoDB reads it without locks; other engines lock as any SELECT does), naming
 * only the columns that are not sensitive. The row count is the server's estimate.
 */
export async function readMariadbProfiles(
  connection: Connection,
  catalog: Catalog,
  sensitive: readonly string[],
): Promise<ColumnProfile[]> {
  const columnsOf = new Map<string, Catalog["elements"]>();
  for (const e of catalog.elements) {
    const key = `${e.schema}.${e.object}`;
    const list = columnsOf.get(key);
    if (list) list.push(e);
    else columnsOf.set(key, [e]);
  }
  const profiles: ColumnProfile[] = [];
  for (const table of catalog.objects) {
    if (table.kind !== "table") continue;
    const columns = columnsOf.get(`${table.schema}.${table.name}`) ?? [];
    const readable = columns.filter((c) => !isSensitive(sensitive, c.name));
    const rows = readable.length
      ? (
          await connection.query<RowDataPacket[]>({
            sql: `select ${readable.map((c) => quote(c.name)).join(", ")} from ${quote(table.schema)}.${quote(table.name)} limit ${SAMPLE_ROWS}`,
            rowsAsArray: true,
          })
        )[0]
      : [];
    for (const c of columns) {
      const base = { schema: c.schema, object: c.object, column: c.name };
      const index = readable.indexOf(c);
      profiles.push(
        index < 0
          ? { ...emptyProfile({ ...base, method: "sensitive" }), rowCount: table.rowestimate }
          : profileOf(
              {
                ...emptyProfile({ ...base, method: "sample" }),
                rowCount: table.rowestimate,
                datatype: c.datatype,
              },
              rows.map((r) => (r as unknown[])[index]),
            ),
      );
    }
  }
  return profiles;
}
