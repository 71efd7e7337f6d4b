import type { Connection, RowDataPacket } from "mysql2/promise";
import { type Catalog, type ColumnProfile, emptyProfile } from "../catalog.ts";
import { profileOfSample, SAMPLE_ROWS } from "../sample-profile.ts";
import { isSensitive } from "../sensitive-columns.ts";

const quote = (name: string) => `\`${name.replaceAll("`", "``")}\``;

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
          : profileOfSample(
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
