import { type Kysely, sql } from "kysely";

/**
 * A tree's stored paths (hierarchy/, docs/decisions.md), kept by the database itself so that no
 * write path can forget them: every entity table has a `tree_path` (model sync adds it), which in
 * a type with a parent attribute holds the keys from the record's root down to itself.
 * - Each row a statement inserts or re-parents takes its parent's path, followed by its key, before
 *   it is written: a trigger function per table, which model sync writes (model/sync/ddl.ts), so
 *   the lookup's plan is kept rather than made again for each row.
 * - `app.keep_tree_paths()`, after the statement: a row whose parent came in (or moved) in the same
 *   statement may have read its parent's path before it was right, and the records below a moved
 *   one still hold its old path. So from each inserted or re-parented record that has children,
 *   `app.rewrite_tree_paths` walks down and writes the paths that differ; a record reached from two
 *   of them (one lies below the other) takes the longer walk, which starts above both, from a
 *   parent whose path is right. Moving leaves, the common case, writes nothing more. Each step is
 *   an index probe (lateral, fenced by `offset 0`, as hierarchy/tree-sql.ts walks): misjudging a
 *   level's size, the planner would otherwise hash the whole table once per level.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function app.rewrite_tree_paths(schema_name text, table_name text, parent text, keys bigint[])
    returns void language plpgsql as $fn$
    begin
      if cardinality(keys) = 0 then return; end if;
      execute format(
        'with recursive walk(key, path, level) as (
           select t.entity_key_id, coalesce(p.tree_path, ''{}'') || t.entity_key_id, 0
             from unnest($1) as m(key) join %1$I.%2$I t on t.entity_key_id = m.key
               left join %1$I.%2$I p on p.entity_key_id = t.%3$I
           union all
           select c.key, w.path || c.key, w.level + 1
             from walk w cross join lateral
               (select c.entity_key_id as key from %1$I.%2$I c where c.%3$I = w.key offset 0) c
             where w.level < 1000)
         update %1$I.%2$I t set tree_path = w.path
           from (select distinct on (key) key, path from walk order by key, level desc) w
           where t.entity_key_id = w.key and t.tree_path is distinct from w.path',
        schema_name, table_name, parent) using keys;
    end
  $fn$`.execute(db);

  // TG_ARGV[0]: the parent column. The transition tables hold the statement's rows.
  await sql`create function app.keep_tree_paths() returns trigger language plpgsql as $fn$
    declare
      roots bigint[];
    begin
      if TG_OP = 'INSERT' then
        execute format(
          'select array_agg(n.entity_key_id) from new_rows n
             where exists (select from new_rows c where c.%1$I = n.entity_key_id)', TG_ARGV[0])
          into roots;
      else
        execute format(
          'select array_agg(n.entity_key_id) from new_rows n join old_rows o using (entity_key_id)
             where n.%1$I is distinct from o.%1$I
               and exists (select from %2$I.%3$I c where c.%1$I = n.entity_key_id)',
          TG_ARGV[0], TG_TABLE_SCHEMA, TG_TABLE_NAME) into roots;
      end if;
      perform app.rewrite_tree_paths(TG_TABLE_SCHEMA, TG_TABLE_NAME, TG_ARGV[0], coalesce(roots, '{}'));
      return null;
    end
  $fn$`.execute(db);
}
