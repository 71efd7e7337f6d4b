import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType, Hierarchy } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { entityTable } from "../records/entity-table.ts";
import { labelSql } from "../records/label-sql.ts";

/**
 * The changes a write makes to a tree, as SQL: `select key, parent, name` rows, one per record
 * whose parent is set, changed, or that becomes live (created, brought back): its key (null for a
 * record not stored yet), its parent as it will be (null for a root), and how a message names it
 * where its stored label would not do (null: its label; an upload's row number).
 */
export type TreeChanges = RawBuilder<unknown>;

/** At most this many problems are named in a refusal. */
const NAMED = 5;
/** How far a refusal looks up a long chain to tell a loop from a tree too deep. */
const LOOP_SEARCH = 100_000;

interface Problem {
  kind: "loop" | "deep" | "gone" | "below";
  start: string | null;
  name: string | null;
  node: string;
  level: number;
  chain: string[];
}

/**
 * What keeps the tree of a type from taking the changes: a record that would be its own ancestor,
 * a record or one of its descendants below the type's last level (maxDepth), a live record whose
 * parent is discontinued or not approved yet. The tree is the stored records with the changes laid
 * over them, so the same check judges a proposal before it is written and a write already done in
 * the caller's transaction (the changes then being what is stored). Set-based: one statement walks
 * up from the changed records' parents (at most maxDepth levels, so a loop ends the walk either
 * way) and, from each changed record still fine, down through its unchanged descendants; only a
 * refusal reads more, to name the records. Answers the problems as messages, none when the change
 * may be written. Runs in the caller's transaction (its own when there is none).
 */
export async function treeProblems(
  db: Db,
  context: ContextModel,
  type: EntityType,
  changes: TreeChanges,
): Promise<string[]> {
  const tree = type.hierarchy;
  if (!tree) return [];
  if (!db.isTransaction)
    return db.transaction().execute((tx) => treeProblems(tx, context, type, changes));
  // Two writers each judging the tree without the other's move could close a loop together: from
  // here to the commit no one else writes the type (reads go on). An approval holds more already.
  await sql`lock table ${entityTable(context, type)} in share row exclusive mode`.execute(db);
  // The walks look each record up among the changes: a table with an index, not a CTE, which the
  // recursive steps would scan once per row they visit.
  await sql`drop table if exists ${CHANGES}`.execute(db);
  await sql`create temporary table ${CHANGES} on commit drop as
    select row_number() over () as id, x.key::bigint as key, x.parent::bigint as parent, x.name::text as name
    from (${changes}) as x(key, parent, name)`.execute(db);
  await sql`create index on ${CHANGES} (key)`.execute(db);
  await sql`analyze ${CHANGES}`.execute(db);
  const { rows } = await sql<Problem>`${walkSql(context, type, tree)}`.execute(db);
  if (rows.length === 0) return [];
  return describe(db, context, type, tree, rows);
}

/** The transaction's changes to judge (TreeChanges, numbered), dropped at its commit. */
const CHANGES = sql.table("tree_changes");

function walkSql(context: ContextModel, type: EntityType, tree: Hierarchy): RawBuilder<Problem> {
  const t = entityTable(context, type);
  const parent = sql.id(tree.parent.name);
  const max = tree.maxDepth;
  const c = CHANGES;
  const live = (alias: string) =>
    sql`o.id is null and (${sql.ref(`${alias}.is_deleted`)} or ${sql.ref(`${alias}.is_pending_new`)})`;
  const parentOf = sql`case when o.id is null then p.${parent} else o.parent end`;
  // Each step looks its rows up by index (lateral, fenced by `offset 0` so that the planner keeps
  // it so): misjudging a recursive step's size, it would otherwise hash or sort the whole table
  // or the changes once per level.
  const change = sql`left join lateral (select o.id, o.parent from ${c} o
    where o.key = p.entity_key_id offset 0) o on true`;
  // The walks go up from the changes' parents, not from each change: the 100,000 records an upload
  // moves may hang from 3,000 parents, whose ancestors they share. A change is on a loop when the
  // walk from its parent meets it; its depth is one more than its parent's.
  return sql<Problem>`with recursive
    up(start, node, parent, level, gone) as (
      select s.p, p.entity_key_id, ${parentOf}, 1, ${live("p")}
      from (select distinct parent as p from ${c} where parent is not null) s
        join ${t} p on p.entity_key_id = s.p ${change}
      union all
      select u.start, p.entity_key_id, ${parentOf}, u.level + 1, ${live("p")}
      from up u cross join lateral (select * from ${t} p where p.entity_key_id = u.parent offset 0) p
        ${change}
      where u.level < ${max} and p.entity_key_id <> u.start),
    above as (
      select start, max(level) as levels, bool_or(level = 1 and gone) as gone from up group by start),
    looped as (
      select u.start, u.node, min(u.level) as level
      from up u join ${c} c on c.key = u.node and c.parent = u.start group by u.start, u.node),
    ends as (
      select c.id, c.key as start, c.parent, coalesce(a.levels, 0) + 1 as depth,
        l.node is not null as loop, coalesce(a.gone, false) as gone, l.level as loop_level
      from ${c} c left join above a on a.start = c.parent
        left join looped l on l.start = c.parent and l.node = c.key),
    down(id, node, level) as (
      select e.id, e.start, e.depth from ends e
      where e.start is not null and not e.loop and e.depth <= ${max}
      union all
      select d.id, ch.entity_key_id, d.level + 1
      from down d cross join lateral (select ch.entity_key_id from ${t} ch
        where ch.${parent} = d.node and not ch.is_deleted and not ch.is_pending_new
          and not exists (select from ${c} x where x.key = ch.entity_key_id) offset 0) ch
      where d.level <= ${max}),
    problems as (
      (select 'loop' as kind, id, start as node, depth as level from ends where loop limit ${NAMED})
      union all
      (select 'deep', id, start, depth from ends where not loop and depth > ${max} limit ${NAMED})
      union all
      (select 'gone', id, start, 2 from ends where gone and not loop limit ${NAMED})
      union all
      (select 'below', id, node, level from down where level > ${max} limit ${NAMED}))
    select p.kind, e.start::text as start, c.name, p.node::text as node, p.level,
      array[e.start::text] || coalesce((select array_agg(u.node::text order by u.level) from up u
        where u.start = e.parent and u.level <= coalesce(e.loop_level, ${max})), '{}') as chain
    from problems p join ends e on e.id = p.id join ${c} c on c.id = p.id
    order by p.kind, p.id`;
}

/** The problems as messages, the records named by their labels. */
async function describe(
  db: Db,
  context: ContextModel,
  type: EntityType,
  tree: Hierarchy,
  problems: Problem[],
): Promise<string[]> {
  const deep = problems.filter((p) => p.kind === "deep" && p.start !== null);
  const loops = new Map(
    await Promise.all(
      deep.map(
        async (p) => [p.start, await longLoop(db, context, type, tree, p.start as string)] as const,
      ),
    ),
  );
  const keys = new Set(
    problems.flatMap((p) => [p.node, ...(p.chain ?? [])].filter((k) => k !== null)),
  );
  for (const chain of loops.values()) for (const k of chain ?? []) keys.add(k);
  const labels = await labelsOf(db, context, type, [...keys]);
  const named = (p: Problem) =>
    p.name ?? (p.start === null ? "The new record" : `'${labels.get(p.start) ?? p.start}'`);
  const label = (key: string | null) => (key === null ? "(new)" : (labels.get(key) ?? key));
  const path = (chain: readonly (string | null)[]) => chain.map(label).join(" / ");
  const levels = `the tree of ${type.uiName} has at most ${tree.maxDepth} levels`;
  return problems.map((p) => {
    const chain = p.chain ?? [];
    switch (p.kind) {
      case "loop":
        return `${named(p)} would be its own ancestor: ${path(chain)}`;
      case "gone":
        return `${named(p)} cannot be placed under '${label(chain[1])}', which is discontinued or not approved yet`;
      case "below":
        return `${named(p)} would put '${label(p.node)}', below it, at level ${p.level}: ${levels}`;
      default: {
        const loop = loops.get(p.start);
        if (loop)
          return `${named(p)} would be its own ancestor, ${loop.length - 1} levels up: ${path(shortened(loop))}`;
        return `${named(p)} would lie more than ${tree.maxDepth} levels deep (${path(shortened([...chain, "…"]))}): ${levels}`;
      }
    }
  });
}

/** A long chain with its middle left out. */
function shortened(chain: readonly string[]): string[] {
  return chain.length <= 8 ? [...chain] : [...chain.slice(0, 4), "…", ...chain.slice(-3)];
}

/**
 * The ancestors of a stored record up to itself again, when it is on a loop longer than the tree
 * may be deep; undefined when the chain ends. Only a refusal asks, for one record at a time.
 */
async function longLoop(
  db: Db,
  context: ContextModel,
  type: EntityType,
  tree: Hierarchy,
  start: string,
): Promise<string[] | undefined> {
  const t = entityTable(context, type);
  const parent = sql.id(tree.parent.name);
  const { rows } = await sql<{ chain: string[] | null }>`with recursive up(node, parent, level) as (
      select entity_key_id, ${parent}, 1 from ${t} where entity_key_id = ${start}
      union all
      select p.entity_key_id, p.${parent}, u.level + 1 from up u join ${t} p on p.entity_key_id = u.parent
      where u.level < ${LOOP_SEARCH} and (u.level = 1 or u.node <> ${start}::bigint))
    select array_agg(node::text order by level) as chain from up
    having bool_or(level > 1 and node = ${start}::bigint)`.execute(db);
  return rows[0]?.chain ?? undefined;
}

async function labelsOf(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keys: readonly string[],
): Promise<Map<string, string>> {
  const known = keys.filter((k) => /^\d+$/.test(k));
  if (known.length === 0) return new Map();
  const { rows } = await sql<{ key: string; label: string }>`
    select v.entity_key_id::text as key, ${labelSql(type, "v")} as label
    from ${sql.table(`${context.schema}.${viewNameOf(type.name)}`)} v
    where v.entity_key_id = any(${known}::bigint[])`.execute(db);
  return new Map(rows.map((r) => [r.key, r.label]));
}
