import type { Connection, RowDataPacket } from "mysql2/promise";
import {
  type Catalog,
  type CatalogElement,
  type CatalogLineage,
  type CatalogObject,
  LINEAGE,
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
    c.column_default as column_default, c.extra, c.generation_expression,
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
 * Reads the documented objects and their columns from information_schema: two set-based queries,
 * the objects first (with what each view reads, from its definition), handed to `objectsRead` as
 * soon as they are read. information_schema is not
 * a snapshot, so columns of an object created between the two are left for the next import.
 */
export async function readMariadbCatalog(
  connection: Connection,
  options: { databases: readonly string[]; flavour: Flavour },
  objectsRead: (objects: CatalogObject[]) => void = () => undefined,
): Promise<Catalog> {
  const [tableWhere, params] = schemaFilter("t", options.databases);
  const [objectRows] = await connection.query<RowDataPacket[]>(OBJECTS(tableWhere), params);
  const lineage: CatalogLineage[] = [];
  const objects: CatalogObject[] = objectRows.map((o) => {
    const object = {
      schema: o.schema,
      name: o.name,
      kind: o.kind,
      description: o.description,
      rowestimate: o.rowestimate === null ? null : Number(o.rowestimate),
      lineage: null,
    };
    if (o.kind !== "view") return object;
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
      description: c.description,
    });
  }
  return { objects, elements, lineage };
}
