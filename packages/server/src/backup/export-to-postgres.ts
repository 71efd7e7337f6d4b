import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { pgDump } from "@electric-sql/pglite-tools";
import pg from "pg";
import { from as copyFrom } from "pg-copy-streams";

/** An export that cannot be made; the message says why, and the target was left as it was. */
export class ExportError extends Error {}

/** What an export copied. */
export interface ExportSummary {
  tables: number;
  rows: number;
}

interface SourceTable {
  name: string;
  columns: string;
  blocks: number;
}

// Blocks of 8 kB read per COPY: a table goes over in slices of at most 32 MB.
const BLOCKS_PER_SLICE = 4096;

const USER_SCHEMAS = `n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'`;

/** The tables to copy: every one outside the system's schemas, but an extension's own. */
async function sourceTables(source: PGlite): Promise<SourceTable[]> {
  const { rows } = await source.query<SourceTable>(`
    select format('%I.%I', n.nspname, c.relname) as name,
           (select string_agg(quote_ident(a.attname), ', ' order by a.attnum) from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = '') as columns,
           (pg_relation_size(c.oid) / current_setting('block_size')::int)::int as blocks
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'r' and ${USER_SCHEMAS}
      and not exists (select 1 from pg_depend d where d.objid = c.oid and d.deptype = 'e')
    order by 1`);
  return rows;
}

/** A section of pg_dump's schema text, without the settings the target's PostgreSQL lacks. */
async function schemaSection(
  source: PGlite,
  section: "pre-data" | "post-data",
  settings: Set<string>,
): Promise<string> {
  const file = await pgDump({
    pg: source,
    args: ["--schema-only", "--no-owner", "--no-privileges", `--section=${section}`],
  });
  return (await file.text())
    .split("\n")
    .filter((line) => {
      if (line.startsWith("\\")) return false; // psql's own commands (\restrict)
      const set = /^SET (\w+) = /.exec(line);
      return !set || settings.has(set[1]);
    })
    .join("\n");
}

/** Copies one table in slices of its blocks, each COPY'd out of PGlite and into PostgreSQL. */
async function copyTable(source: PGlite, target: pg.Client, table: SourceTable): Promise<number> {
  let rows = 0;
  // One slice past the size read: the last block may have been reached by rows added since.
  for (let first = 0; first <= table.blocks; first += BLOCKS_PER_SLICE) {
    const range = `ctid >= '(${first},0)'::tid and ctid < '(${first + BLOCKS_PER_SLICE},0)'::tid`;
    const result = await source.query(
      `copy (select ${table.columns} from ${table.name} where ${range}) to '/dev/blob'`,
    );
    if (!result.blob || result.blob.size === 0) continue;
    const into = target.query(copyFrom(`copy ${table.name} (${table.columns}) from stdin`));
    await pipeline(Readable.fromWeb(result.blob.stream() as never), into);
    rows += into.rowCount ?? 0;
  }
  return rows;
}

/**
 * Copies the embedded database in `folder` into the empty PostgreSQL database at `url`, as
 * pg_restore would: pg_dump's definitions before the data (tables, sequences, functions), the rows of
 * every table, the sequences' places, then the definitions after it (keys, indexes, triggers), all
 * in one transaction, so the target holds everything or nothing.
 */
export async function exportToPostgres(folder: string, url: string): Promise<ExportSummary> {
  const target = new pg.Client({ connectionString: url });
  await target.connect().catch((error: Error) => {
    throw new ExportError(
      `PostgreSQL at ${url.replace(/:[^:@/]*@/, ":***@")} cannot be reached: ${error.message}`,
    );
  });
  const source = await PGlite.create(folder, { extensions: { pg_trgm } });
  try {
    const taken = await target.query(
      "select 1 from information_schema.schemata where schema_name = 'app'",
    );
    if (taken.rowCount)
      throw new ExportError(
        "The target database already holds a Ledgerline database (schema app): export into an empty database",
      );
    const settings = new Set(
      (await target.query<{ name: string }>("select name from pg_settings")).rows.map(
        (r) => r.name,
      ),
    );
    const before = await schemaSection(source, "pre-data", settings);
    const after = await schemaSection(source, "post-data", settings);
    const tables = await sourceTables(source);
    const { rows: sequences } = await source.query<{ name: string; value: string | null }>(`
      select format('%I.%I', schemaname, sequencename) as name, last_value::text as value
      from pg_sequences where schemaname not in ('pg_catalog', 'information_schema')`);

    let rows = 0;
    await target.query("begin");
    try {
      await target.query(before);
      for (const table of tables) rows += await copyTable(source, target, table);
      for (const sequence of sequences)
        if (sequence.value !== null)
          await target.query("select pg_catalog.setval($1, $2::bigint, true)", [
            sequence.name,
            sequence.value,
          ]);
      await target.query(after);
      await target.query("commit");
    } catch (error) {
      await target.query("rollback");
      throw error;
    }
    return { tables: tables.length, rows };
  } finally {
    await source.close();
    await target.end();
  }
}
