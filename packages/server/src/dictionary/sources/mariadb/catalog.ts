import type { Connection, RowDataPacket } from "mysql2/promise";
import {
  type Catalog,
  type CatalogElement,
  type CatalogIndex,
  type CatalogLineage,
  type CatalogObject,
  LINEAGE,
  uniqueKeyText,
} from "../catalog.ts";
import { viewReads } from "./view-definition.ts";

/** Which server answers: MariaDB and MySQL 8 differ in how information_schema shows defaults. */
export type Flavour = "mariadb" | "mysql";

const SYSTEM_SCHEMAS = ["mysql", "information_schema", "performance_schema", "sys"];

/** The condition on `<alias>.table_schema` that selects the databases to document, and its values. */
function schemaFilter(alias: string, databases: readonly string[]): [string, unknown[]] {
  return databases.length > 0
    ? [`${alias}.table_schema in (?)`, [databases]]
    : [`${alias}.table_schema not in (?)`, [SYSTEM_SCHEMAS]];
}

// Every column these queries select from information_schema carries an alias: without one,
// MySQL 8.0.12 and later answer the column's name in upper case (NON_UNIQUE), whatever the query
// wrote, and the rows would lack the names read below.

// Sequences (MariaDB's) are left out, as the PostgreSQL import leaves its sequences out. A view has
// no comment of its own: the server answers 'VIEW' in its place.
const OBJECTS = (where: string) => `
  select t.table_schema as \`schema\`, t.table_name as name,
    case when t.table_type in ('VIEW', 'SYSTEM VIEW') then 'view' else 'table' end as kind,
    case when t.table_type in ('VIEW', 'SYSTEM VIEW') then null else nullif(t.table_comment, '') end as description,
    case when t.table_type in ('VIEW', 'SYSTEM VIEW') then null else t.table_rows end as rowestimate,
    v.view_definition as definition
  from information_schema.tables t
  left join information_schema.views v on v.table_schema = t.table_schema and v.table_name = t.table_name
  where ${where} and t.table_type <> 'SEQUENCE'
  order by t.table_schema, t.table_name`;

// Primary and foreign key columns from key_column_usage, one row per column (the first foreign
// key's target when a column is in several, as the PostgreSQL import does).
const ELEMENTS = (where: string) => `
  select c.table_schema as \`schema\`, c.table_name as object, c.column_name as name,
    c.ordinal_position as position, c.column_type as datatype, c.is_nullable = 'YES' as nullable,
    c.column_default as column_default, c.extra as extra,
    c.generation_expression as generation_expression,
    coalesce(k.primarykey, 0) as primarykey, k.foreignkey,
    nullif(c.column_comment, '') as description
  from information_schema.columns c
  left join (
    select u.table_schema, u.table_name, u.column_name,
      max(u.constraint_name = 'PRIMARY') as primarykey,
      min(case when u.referenced_table_name is not null
               then concat(u.referenced_table_schema, '.', u.referenced_table_name, '.', u.referenced_column_name) end) as foreignkey
    from information_schema.key_column_usage u
    where ${where.replaceAll("c.table_schema", "u.table_schema")}
      and (u.constraint_name = 'PRIMARY' or u.referenced_table_name is not null)
    group by u.table_schema, u.table_name, u.column_name
  ) k on k.table_schema = c.table_schema and k.table_name = c.table_name and k.column_name = c.column_name
  where ${where}
  order by c.table_schema, c.table_name, c.ordinal_position`;

// The columns of information_schema.statistics that only some servers have: MySQL 8's functional
// key parts (COLUMN_NAME null, EXPRESSION the expression) and invisible indexes, MariaDB's (10.6+)
// ignored ones.
const OPTIONAL_STATISTICS = ["EXPRESSION", "IS_VISIBLE", "IGNORED"] as const;
type OptionalStatistic = (typeof OPTIONAL_STATISTICS)[number];

const STATISTICS_COLUMNS = `
  select upper(column_name) as name from information_schema.columns
  where table_schema = 'information_schema' and table_name = 'STATISTICS' and upper(column_name) in (?)`;

// One row per key part, in order; every unique key is a unique index here (PRIMARY the primary key).
const INDEX_PARTS = (where: string, has: ReadonlySet<OptionalStatistic>) => `
  select s.table_schema as \`schema\`, s.table_name as object, s.index_name as name,
    s.non_unique as non_unique, s.seq_in_index as seq_in_index, s.column_name as \`column\`,
    s.sub_part as sub_part, s.collation as sort_order, s.index_type as index_type,
    ${has.has("EXPRESSION") ? "s.expression" : "null"} as expression,
    ${has.has("IS_VISIBLE") ? "s.is_visible = 'NO'" : "0"} as invisible,
    ${has.has("IGNORED") ? "s.ignored = 'YES'" : "0"} as ignored
  from information_schema.statistics s
  where ${where}
  order by s.table_schema, s.table_name, s.index_name, s.seq_in_index`;

/** One key part of an index, as information_schema.statistics answers it. */
export interface IndexPart {
  schema: string;
  object: string;
  name: string;
  non_unique: number | string;
  seq_in_index: number | string;
  column: string | null;
  sub_part: number | string | null;
  sort_order: string | null;
  index_type: string;
  expression: string | null;
  invisible: number | string;
  ignored: number | string;
}

/** A key part as the dictionary shows it: the column (with its prefix length) or expression, DESC where so. */
function keyPart(row: IndexPart): string {
  const part =
    row.column === null
      ? String(row.expression ?? "")
      : row.sub_part === null
        ? row.column
        : `${row.column}(${Number(row.sub_part)})`;
  return row.sort_order === "D" ? `${part} DESC` : part;
}

/**
 * The indexes of each table (by `schema.name`) and the unique keys of each column (by
 * `schema.table.column`), from the key parts in their order.
 */
export function indexesOf(rows: readonly IndexPart[]): {
  indexes: Map<string, CatalogIndex[]>;
  uniqueKeys: Map<string, string[]>;
} {
  const byIndex = new Map<string, { object: string; index: CatalogIndex; parts: IndexPart[] }>();
  for (const row of rows) {
    const object = `${row.schema}.${row.object}`;
    const key = `${object}\u0000${row.name}`;
    let found = byIndex.get(key);
    if (!found) {
      const type = String(row.index_type ?? "BTREE").toLowerCase();
      found = {
        object,
        index: {
          name: row.name,
          primary: row.name === "PRIMARY",
          unique: Number(row.non_unique) === 0,
          columns: [],
          include: [],
          method: type === "btree" ? null : type,
          where: null,
          state: Number(row.invisible) ? "invisible" : Number(row.ignored) ? "ignored" : null,
        },
        parts: [],
      };
      byIndex.set(key, found);
    }
    found.parts.push(row);
  }
  const indexes = new Map<string, CatalogIndex[]>();
  const uniqueKeys = new Map<string, string[]>();
  for (const { object, index, parts } of byIndex.values()) {
    parts.sort((a, b) => Number(a.seq_in_index) - Number(b.seq_in_index));
    index.columns = parts.map(keyPart);
    const list = indexes.get(object);
    if (list) list.push(index);
    else indexes.set(object, [index]);
    if (!index.unique || index.primary) continue;
    for (const part of parts) {
      if (part.column === null) continue;
      const column = `${object}.${part.column}`;
      const names = uniqueKeys.get(column);
      if (names) names.push(index.name);
      else uniqueKeys.set(column, [index.name]);
    }
  }
  return { indexes, uniqueKeys };
}

interface ColumnRow extends RowDataPacket {
  schema: string;
  object: string;
  name: string;
  position: number;
  datatype: string;
  nullable: number;
  column_default: string | null;
  extra: string;
  generation_expression: string | null;
  primarykey: number;
  foreignkey: string | null;
  description: string | null;
}

/** MySQL 8 shows a literal default bare ('abc' as abc); MariaDB quotes it, as PostgreSQL does. */
function literal(value: string): string {
  return /^-?\d+(\.\d+)?$/.test(value) ? value : `'${value.replaceAll("'", "''")}'`;
}

/**
 * The default as the dictionary shows it: the server's expression, a quoted literal, or how the
 * column is generated; null when it has none (MariaDB says 'NULL' for a nullable one's).
 */
export function defaultOf(
  row: Pick<ColumnRow, "column_default" | "extra" | "generation_expression">,
  flavour: Flavour,
): string | null {
  const extra = row.extra.toLowerCase();
  const generated = /\b(stored|virtual|persistent) generated\b/.exec(extra);
  if (generated && row.generation_expression)
    return `generated always as (${row.generation_expression}) ${generated[1] === "virtual" ? "virtual" : "stored"}`;
  if (extra.includes("auto_increment")) return "auto_increment";
  let value = row.column_default;
  if (flavour === "mariadb" && value === "NULL") value = null;
  if (flavour === "mysql" && value !== null && !extra.includes("default_generated"))
    value = literal(value);
  const onUpdate = /on update [^ ]+/i.exec(row.extra)?.[0];
  if (onUpdate) return value === null ? onUpdate : `${value} ${onUpdate}`;
  return value;
}

/**
 * Reads the documented objects and their columns from information_schema: a few set-based
 * queries, the objects first (with their indexes, and what each view reads, from its definition),
 * handed to `objectsRead` as soon as they are read. information_schema is not a snapshot, so
 * columns of an object created between the queries are left for the next import.
 */
export async function readMariadbCatalog(
  connection: Connection,
  options: { databases: readonly string[]; flavour: Flavour },
  objectsRead: (objects: CatalogObject[]) => void = () => undefined,
): Promise<Catalog> {
  const [tableWhere, params] = schemaFilter("t", options.databases);
  const [objectRows] = await connection.query<RowDataPacket[]>(OBJECTS(tableWhere), params);
  const [present] = await connection.query<RowDataPacket[]>(STATISTICS_COLUMNS, [
    OPTIONAL_STATISTICS,
  ]);
  const has = new Set(present.map((r) => String(r.name) as OptionalStatistic));
  const [indexWhere] = schemaFilter("s", options.databases);
  const [partRows] = await connection.query<(IndexPart & RowDataPacket)[]>(
    INDEX_PARTS(indexWhere, has),
    params,
  );
  const { indexes, uniqueKeys } = indexesOf(partRows);
  const lineage: CatalogLineage[] = [];
  const objects: CatalogObject[] = objectRows.map((o) => {
    const isView = o.kind === "view";
    const object = {
      schema: o.schema,
      name: o.name,
      kind: o.kind,
      description: o.description,
      rowestimate: o.rowestimate === null ? null : Number(o.rowestimate),
      lineage: null,
      // Empty where the user may not SHOW VIEW: then not known, rather than an empty query.
      definition: isView ? String(o.definition ?? "").trim() || null : null,
      indexes: indexes.get(`${o.schema}.${o.name}`) ?? [],
    };
    if (!isView) return object;
    const found = viewReads(o.definition);
    if (!found.parsed) return { ...object, lineage: LINEAGE.notParsed(found.why) };
    for (const r of found.reads)
      lineage.push({
        schema: o.schema,
        view: o.name,
        readsSchema: r.schema,
        readsName: r.name,
        columns: r.columns,
      });
    return { ...object, lineage: LINEAGE.parsed };
  });
  objectsRead(objects);
  const known = new Set(objects.map((o) => `${o.schema}.${o.name}`));
  const [columnWhere] = schemaFilter("c", options.databases);
  const [columnRows] = await connection.query<ColumnRow[]>(ELEMENTS(columnWhere), [
    ...params,
    ...params,
  ]);
  const elements: CatalogElement[] = [];
  for (const c of columnRows) {
    if (!known.has(`${c.schema}.${c.object}`)) continue;
    elements.push({
      schema: c.schema,
      object: c.object,
      name: c.name,
      position: Number(c.position),
      datatype: c.datatype,
      nullable: Boolean(c.nullable),
      defaultvalue: defaultOf(c, options.flavour),
      primarykey: Boolean(c.primarykey),
      foreignkey: c.foreignkey,
      uniquekey: uniqueKeyText(uniqueKeys.get(`${c.schema}.${c.object}.${c.name}`) ?? []),
      description: c.description,
    });
  }
  return { objects, elements, lineage };
}
