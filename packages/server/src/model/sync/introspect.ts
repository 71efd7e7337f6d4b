import { type Kysely, sql } from "kysely";
import { TREE_TRIGGERS } from "./ddl.ts";

export interface ActualColumn {
  sqlType: string;
  notNull: boolean;
}

export interface ActualState {
  extensions: Set<string>;
  schemas: Set<string>;
  /** "schema.table" to its columns. */
  tables: Map<string, Map<string, ActualColumn>>;
  /** "schema.index" (primary keys excluded). */
  indexes: Set<string>;
  /** "schema.constraint" of foreign keys. */
  foreignKeys: Set<string>;
  /** "schema.view" to its comment (the fingerprint). */
  views: Map<string, string | null>;
  /** "schema.table" of a tree to the parent column its path triggers were given (migration 020). */
  treeTriggers: Map<string, string>;
}

const CONTEXT_SCHEMAS = "ctx\\_%";

/** Reads what the context schemas hold now, in a few catalog queries. */
export async function introspect(db: Kysely<unknown>): Promise<ActualState> {
  const extensions = await sql<{ extname: string }>`select extname from pg_extension`.execute(db);
  const schemas = await sql<{ nspname: string }>`
    select nspname from pg_namespace where nspname like ${CONTEXT_SCHEMAS}`.execute(db);
  const columns = await sql<{
    schema: string;
    table: string;
    column: string;
    type: string;
    notnull: boolean;
  }>`
    select n.nspname as schema, c.relname as table, a.attname as column,
           format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as notnull
    from pg_class c
    join pg_namespace n on n.oid = c.relnamespace
    join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
    where c.relkind in ('r', 'p') and n.nspname like ${CONTEXT_SCHEMAS}
    order by 1, 2, a.attnum`.execute(db);
  const indexes = await sql<{ schema: string; name: string }>`
    select n.nspname as schema, c.relname as name
    from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_namespace n on n.oid = c.relnamespace
    where not i.indisprimary and n.nspname like ${CONTEXT_SCHEMAS}`.execute(db);
  const fkeys = await sql<{ schema: string; name: string }>`
    select n.nspname as schema, con.conname as name
    from pg_constraint con join pg_namespace n on n.oid = con.connamespace
    where con.contype = 'f' and n.nspname like ${CONTEXT_SCHEMAS}`.execute(db);
  const views = await sql<{ schema: string; name: string; comment: string | null }>`
    select n.nspname as schema, c.relname as name, obj_description(c.oid, 'pg_class') as comment
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'v' and n.nspname like ${CONTEXT_SCHEMAS}`.execute(db);

  // A trigger's arguments are stored as bytes, each ended by a zero byte; attribute names are ASCII.
  const triggers = await sql<{ schema: string; table: string; parent: string }>`
    select n.nspname as schema, c.relname as table,
      split_part(encode(tg.tgargs, 'escape'), '\\000', 1) as parent
    from pg_trigger tg join pg_class c on c.oid = tg.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where tg.tgname = ${TREE_TRIGGERS.update} and n.nspname like ${CONTEXT_SCHEMAS}`.execute(db);

  const tables = new Map<string, Map<string, ActualColumn>>();
  for (const c of columns.rows) {
    const key = `${c.schema}.${c.table}`;
    const cols = tables.get(key) ?? new Map<string, ActualColumn>();
    cols.set(c.column, { sqlType: c.type, notNull: c.notnull });
    tables.set(key, cols);
  }
  return {
    extensions: new Set(extensions.rows.map((r) => r.extname)),
    schemas: new Set(schemas.rows.map((r) => r.nspname)),
    tables,
    indexes: new Set(indexes.rows.map((r) => `${r.schema}.${r.name}`)),
    foreignKeys: new Set(fkeys.rows.map((r) => `${r.schema}.${r.name}`)),
    views: new Map(views.rows.map((r) => [`${r.schema}.${r.name}`, r.comment])),
    treeTriggers: new Map(triggers.rows.map((r) => [`${r.schema}.${r.table}`, r.parent])),
  };
}
