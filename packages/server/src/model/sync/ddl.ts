import { createHash } from "node:crypto";
import type { DataType } from "../model.ts";

/** Quotes an identifier for PostgreSQL. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Quotes a text as a PostgreSQL string literal, for DDL that cannot take parameters. */
export function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export function qualified(schema: string, name: string): string {
  return `${quoteIdent(schema)}.${quoteIdent(name)}`;
}

/** A name of at most 63 bytes (PostgreSQL's limit) made of parts joined by `__`, hashed when too long. */
export function objectName(...parts: string[]): string {
  const name = parts.join("__");
  if (name.length <= 63) return name;
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 10);
  return `${name.slice(0, 52)}_${hash}`;
}

export const SQL_TYPES: Readonly<Record<DataType, string>> = {
  String: "text",
  Number: "numeric",
  Boolean: "boolean",
  Date: "date",
  Reference: "bigint",
};

export interface ColumnDef {
  name: string;
  sqlType: string;
  notNull: boolean;
}

/**
 * The keys from a tree's root down to the record (migration 020 keeps it; null outside trees):
 * the last system column, which tables made before it get added.
 */
export const TREE_PATH: ColumnDef = { name: "tree_path", sqlType: "bigint[]", notNull: false };

export function createSchemaSql(schema: string): string {
  return `create schema if not exists ${quoteIdent(schema)}`;
}

/** The entity table: system columns first, then one column per stored attribute. */
export function createTableSql(
  schema: string,
  table: string,
  columns: readonly ColumnDef[],
): string {
  const system = [
    "entity_key_id bigint generated always as identity primary key",
    "is_deleted boolean not null default false",
    "is_pending_new boolean not null default false",
    "version integer not null default 1",
    "created_at timestamptz not null default now()",
    "created_by text not null",
    "updated_at timestamptz not null default now()",
    "updated_by text not null",
    "last_event_id bigint",
    `${TREE_PATH.name} ${TREE_PATH.sqlType}`,
  ];
  const own = columns.map(columnSql);
  // Room left on each page lets an update that changes no indexed column (a version bump, an
  // unindexed attribute; a soft delete where no StartsWith index covers is_deleted) stay on its page
  // without new index entries (a HOT update).
  return `create table ${qualified(schema, table)} (\n  ${[...system, ...own].join(",\n  ")}\n) with (fillfactor = 90)`;
}

function columnSql(c: ColumnDef): string {
  return `${quoteIdent(c.name)} ${c.sqlType}${c.notNull ? " not null" : ""}`;
}

export function addColumnSql(schema: string, table: string, column: ColumnDef): string {
  return `alter table ${qualified(schema, table)} add column ${columnSql(column)}`;
}

export function dropColumnSql(schema: string, table: string, column: string): string {
  return `alter table ${qualified(schema, table)} drop column ${quoteIdent(column)}`;
}

export function alterColumnTypeSql(
  schema: string,
  table: string,
  column: string,
  sqlType: string,
): string {
  const col = quoteIdent(column);
  return `alter table ${qualified(schema, table)} alter column ${col} type ${sqlType} using ${col}::${sqlType}`;
}

export function dropTableSql(schema: string, table: string): string {
  return `drop table ${qualified(schema, table)}`;
}

export function dropSchemaSql(schema: string): string {
  return `drop schema ${quoteIdent(schema)} cascade`;
}

export function addForeignKeySql(
  schema: string,
  table: string,
  constraint: string,
  column: string,
  refTable: string,
): string {
  return (
    `alter table ${qualified(schema, table)} add constraint ${quoteIdent(constraint)} ` +
    `foreign key (${quoteIdent(column)}) references ${qualified(schema, refTable)} (entity_key_id)`
  );
}

export type IndexKind =
  | "unique"
  | "btree"
  | "pattern"
  | "prefix"
  | "trigram"
  | "searchStart"
  | "searchWords"
  | "tree"
  | "treePath";

/**
 * An index over plain columns (`unique`, `btree`), `lower(col) text_pattern_ops` (`pattern`), the
 * same covering what a list's StartsWith filter reads (`prefix`), a pg_trgm GIN, or the search
 * box's two over the folded text (`searchStart`, `searchWords`: migration 018), a tree's parent
 * and key with the live flags (`tree`), its stored paths with them (`treePath`).
 */
export function createIndexSql(
  schema: string,
  table: string,
  name: string,
  kind: IndexKind,
  columns: readonly string[],
): string {
  const target = qualified(schema, table);
  const cols = columns.map(quoteIdent);
  switch (kind) {
    case "unique":
      return `create unique index ${quoteIdent(name)} on ${target} (${cols.join(", ")})`;
    case "btree":
      return `create index ${quoteIdent(name)} on ${target} (${cols.join(", ")})`;
    case "pattern":
      return `create index ${quoteIdent(name)} on ${target} (lower(${cols[0]}) text_pattern_ops)`;
    case "prefix":
      // The column itself too: PostgreSQL reads an expression index only when it holds every
      // column the query names. So a filtered list's keys and its count are index-only scans; the
      // price is that a soft delete, holding an indexed flag, is no longer a HOT update.
      return `create index ${quoteIdent(name)} on ${target} (lower(${cols[0]}) text_pattern_ops) include (${cols[0]}, entity_key_id, is_deleted, is_pending_new)`;
    // A tree's parent and key, covering the flags a live node is told by: a node's children, a page
    // of them and their count, and each walk down (hierarchy/) are index-only scans.
    case "tree":
      return `create index ${quoteIdent(name)} on ${target} (${cols.join(", ")}) include (is_deleted, is_pending_new)`;
    // A subtree is a range of stored paths (hierarchy/tree-sql.ts): its page and count read only this.
    case "treePath":
      return `create index ${quoteIdent(name)} on ${target} (${cols[0]}) include (is_deleted, is_pending_new)`;
    case "trigram":
      return `create index ${quoteIdent(name)} on ${target} using gin (${cols[0]} gin_trgm_ops)`;
    // The search box's (search/): a folded value's start, and its words for inner words and typos.
    case "searchStart":
      return `create index ${quoteIdent(name)} on ${target} (app.search_start(${cols[0]}) text_pattern_ops)`;
    case "searchWords":
      return `create index ${quoteIdent(name)} on ${target} using gin (app.search_fold(${cols[0]}) gin_trgm_ops)`;
  }
}

export function dropIndexSql(schema: string, name: string): string {
  return `drop index ${qualified(schema, name)}`;
}

/** The read view of a type: the table plus one column per formula, each cast to its attribute's type. */
export function viewSelectSql(
  schema: string,
  table: string,
  formulas: readonly { name: string; formula: string; sqlType: string }[],
): string {
  const extra = formulas
    .map((f) => `,\n  ((${f.formula}))::${f.sqlType} as ${quoteIdent(f.name)}`)
    .join("");
  return `select t.*${extra}\nfrom ${qualified(schema, table)} t`;
}

export function createViewSql(schema: string, view: string, select: string): string {
  return `create view ${qualified(schema, view)} as\n${select}`;
}

export function commentOnViewSql(schema: string, view: string, comment: string): string {
  return `comment on view ${qualified(schema, view)} is '${comment.replaceAll("'", "''")}'`;
}

export function dropViewSql(schema: string, view: string): string {
  return `drop view if exists ${qualified(schema, view)}`;
}

/** The fingerprint stored as the view's comment, so an unchanged view is left alone. */
export function viewFingerprint(select: string): string {
  return `ledgerline:${createHash("sha256").update(select).digest("hex").slice(0, 16)}`;
}

/**
 * The history table of an entity table (the versions a record had before its current one): the
 * table's columns as they are now, without identity or defaults, plus `valid_to`; and the trigger
 * that fills it (app.keep_record_versions, migration 010).
 */
export function createHistoryTableSql(schema: string, table: string, history: string): string[] {
  const argument = `'${history.replaceAll("'", "''")}'`;
  return [
    `create table ${qualified(schema, history)} (like ${qualified(schema, table)}, valid_to timestamptz not null)`,
    `create trigger keep_versions after update on ${qualified(schema, table)} referencing old table as old_rows new table as new_rows for each statement execute function app.keep_record_versions(${argument})`,
  ];
}

/**
 * Fills a new history table from the approved events, for records written before it existed:
 * each event's values merged over the ones before it give the version it started, valid until the
 * record's next approved event.
 */
export function backfillHistorySql(
  schema: string,
  history: string,
  context: string,
  type: string,
  columns: readonly ColumnDef[],
): string {
  const names = columns.map((c) => quoteIdent(c.name));
  const values = columns.map((c) => `(s.state ->> ${quoteLiteral(c.name)})::${c.sqlType}`);
  return `insert into ${qualified(schema, history)} (entity_key_id, is_deleted, is_pending_new, version, created_at, created_by, updated_at, updated_by, last_event_id${names.map((n) => `, ${n}`).join("")}, valid_to)
select s.entity_key_id, s.action in ('Delete', 'Missing'), false, s.n, s.first_at, s.first_by, s.at, s.by, s.event_id${values.map((v) => `, ${v}`).join("")}, s.valid_to
from (
  select e.entity_key_id, e.action, e.event_id, coalesce(e.decided_at, e.created_at) as at,
    coalesce(e.decided_by, e.created_by) as by, row_number() over w as n,
    first_value(coalesce(e.decided_at, e.created_at)) over w as first_at,
    first_value(e.created_by) over w as first_by,
    lead(coalesce(e.decided_at, e.created_at)) over w as valid_to,
    app.jsonb_merge(e.new_values) over w as state
  from app.events e
  where e.context = ${quoteLiteral(context)} and e.entity_type = ${quoteLiteral(type)} and e.status = 'approved'
  window w as (partition by e.entity_key_id order by coalesce(e.decided_at, e.created_at), e.event_id)
) s
where s.valid_to > s.at`;
}

/**
 * What keeps a tree's stored paths (migration 020), given its parent column: the function that
 * gives a row its parent's path and its key before it is written (one per table: its lookup's
 * plan is kept), the row triggers that call it on an insert and a move, and the statement
 * triggers that put right, after the statement, what its rows could not see (app.keep_tree_paths).
 * Then the paths of the records already there, from the roots down.
 */
export function createTreeTriggersSql(schema: string, table: string, parent: string): string[] {
  const target = qualified(schema, table);
  const column = quoteIdent(parent);
  const place = qualified(schema, treePathFunction(table));
  const after = `for each statement execute function app.keep_tree_paths(${quoteLiteral(parent)})`;
  return [
    `create function ${place}() returns trigger language plpgsql as $fn$
    begin
      new.${TREE_PATH.name} := (select p.${TREE_PATH.name} from ${target} p where p.entity_key_id = new.${column}) || new.entity_key_id;
      return new;
    end
  $fn$`,
    `create trigger ${TREE_TRIGGERS.insertRow} before insert on ${target} for each row execute function ${place}()`,
    `create trigger ${TREE_TRIGGERS.moveRow} before update of ${column} on ${target} for each row when (old.${column} is distinct from new.${column}) execute function ${place}()`,
    `create trigger ${TREE_TRIGGERS.insert} after insert on ${target} referencing new table as new_rows ${after}`,
    `create trigger ${TREE_TRIGGERS.update} after update on ${target} referencing old table as old_rows new table as new_rows ${after}`,
    `select app.rewrite_tree_paths(${quoteLiteral(schema)}, ${quoteLiteral(table)}, ${quoteLiteral(parent)}, array(select entity_key_id from ${target} where ${column} is null))`,
  ];
}

/** Removes what keeps a tree's paths, and the paths (the type no longer has a parent attribute). */
export function dropTreeTriggersSql(schema: string, table: string): string[] {
  const target = qualified(schema, table);
  return [
    ...Object.values(TREE_TRIGGERS).map((name) => `drop trigger ${name} on ${target}`),
    `drop function ${qualified(schema, treePathFunction(table))}()`,
    `update ${target} set ${TREE_PATH.name} = null where ${TREE_PATH.name} is not null`,
  ];
}

export const TREE_TRIGGERS = {
  insertRow: "keep_tree_path_of_insert",
  moveRow: "keep_tree_path_of_move",
  insert: "keep_tree_paths_insert",
  update: "keep_tree_paths_update",
};

const treePathFunction = (table: string) => objectName(table, "keep_tree_path");
