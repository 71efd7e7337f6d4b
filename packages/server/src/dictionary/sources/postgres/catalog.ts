import type pg from "pg";
import {
  type Catalog,
  type CatalogElement,
  type CatalogLineage,
  type CatalogObject,
  LINEAGE,
} from "../catalog.ts";

// The relations worth documenting: tables, partitioned tables (partitions folded into them),
// views, materialized views and foreign tables, outside system schemas and extensions.
export const RELATIONS = `
  select c.oid, n.nspname as schema, c.relname as name, c.relkind
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p', 'v', 'm', 'f') and not c.relispartition
    and n.nspname not in ('pg_catalog', 'information_schema')
    and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp\\_%'
    and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
    and not exists (select 1 from pg_depend d where d.classid = 'pg_namespace'::regclass and d.objid = n.oid and d.deptype = 'e')`;

// Comments joined by hash, not looked up one by one (obj_description and col_description run a
// query each: 400,000 of them for the columns of 20,000 tables).
const COMMENT = (alias: string, oid: string, subid: string) =>
  `left join pg_description ${alias} on ${alias}.objoid = ${oid} and ${alias}.classoid = 'pg_class'::regclass and ${alias}.objsubid = ${subid}`;

const OBJECTS = `
  with rels as (${RELATIONS})
  select r.schema, r.name,
    case r.relkind when 'r' then 'table' when 'p' then 'partitioned table' when 'v' then 'view'
                   when 'm' then 'materialized view' else 'foreign table' end as kind,
    ds.description,
    case when r.relkind = 'p' then (
           select nullif(sum(greatest(pc.reltuples, 0)), 0)::bigint from pg_inherits i join pg_class pc on pc.oid = i.inhrelid
           where i.inhparent = r.oid)
         when r.relkind in ('r', 'm') and c.reltuples >= 0 then c.reltuples::bigint end as rowestimate,
    case when r.relkind in ('v', 'm') then $1::text end as lineage
  from rels r join pg_class c on c.oid = r.oid
  ${COMMENT("ds", "r.oid", "0")}
  order by 1, 2`;

// The columns in the order of their relations (schema, name), then their position: the relations
// are ranked once, so the 400,000 columns are sorted by two integers rather than by two names.
const ELEMENTS = `
  with rels as (select *, row_number() over (order by schema, name) as rank from (${RELATIONS}) named),
  keys as (
    select con.conrelid, con.contype, k.attnum,
           fn.nspname || '.' || fc.relname || '.' || fa.attname as target
    from pg_constraint con
    join rels on rels.oid = con.conrelid
    cross join lateral unnest(con.conkey, coalesce(con.confkey, con.conkey)) as k(attnum, fattnum)
    left join pg_class fc on fc.oid = con.confrelid
    left join pg_namespace fn on fn.oid = fc.relnamespace
    left join pg_attribute fa on fa.attrelid = con.confrelid and fa.attnum = k.fattnum
    where con.contype in ('p', 'f')),
  -- One row per keyed column, joined by hash: a lookup into keys per column would scan it 40,000 times.
  column_keys as (
    select conrelid, attnum, bool_or(contype = 'p') as primarykey,
           min(target) filter (where contype = 'f') as foreignkey
    from keys group by conrelid, attnum)
  select r.schema, r.name as object, a.attname as name, a.attnum as position,
         format_type(a.atttypid, a.atttypmod) as datatype, not a.attnotnull as nullable,
         case when a.attidentity in ('a', 'd') then 'generated ' || case a.attidentity when 'a' then 'always' else 'by default' end || ' as identity'
              when a.attgenerated = 's' then 'generated always as (' || pg_get_expr(ad.adbin, ad.adrelid) || ') stored'
              else pg_get_expr(ad.adbin, ad.adrelid) end as defaultvalue,
         coalesce(ck.primarykey, false) as primarykey, ck.foreignkey, ds.description
  from rels r
  join pg_attribute a on a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped
  left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
  left join column_keys ck on ck.conrelid = a.attrelid and ck.attnum = a.attnum
  ${COMMENT("ds", "a.attrelid", "a.attnum")}
  order by r.rank, a.attnum`;

// What each view and materialized view reads, from the dependencies of its rewrite rule: one row
// per relation read, its columns in their order (none when only the whole relation is named, as
// by count(*)). Functions, types and the view itself are left out.
const LINEAGE_READS = `
  with rels as (${RELATIONS})
  select rels.schema, rels.name as view, sn.nspname as "readsSchema", s.relname as "readsName",
    coalesce(array_agg(a.attname::text order by a.attnum) filter (where a.attnum is not null), '{}') as columns
  from rels
  join pg_rewrite rw on rw.ev_class = rels.oid
  join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = rw.oid
    and d.refclassid = 'pg_class'::regclass and d.refobjid <> rels.oid
  join pg_class s on s.oid = d.refobjid and s.relkind in ('r', 'p', 'v', 'm', 'f')
  join pg_namespace sn on sn.oid = s.relnamespace
  left join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid and d.refobjsubid > 0
  where rels.relkind in ('v', 'm')
  group by 1, 2, 3, 4
  order by 1, 2, 3, 4`;

/**
 * Reads the documented objects and their columns in one consistent, read-only snapshot: two
 * set-based queries, the objects first, handed to `objectsRead` as soon as they are read.
 */
export async function readCatalog(
  client: pg.Client,
  objectsRead: (objects: CatalogObject[]) => void = () => undefined,
): Promise<Catalog> {
  await client.query("begin isolation level repeatable read read only");
  try {
    const objects = (await client.query<CatalogObject>(OBJECTS, [LINEAGE.catalog])).rows.map(
      (o) => ({
        ...o,
        rowestimate: o.rowestimate === null ? null : Number(o.rowestimate),
      }),
    );
    objectsRead(objects);
    const elements = await client.query<CatalogElement>(ELEMENTS);
    const lineage = await client.query<CatalogLineage>(LINEAGE_READS);
    // attnum is a smallint, which the driver answers as a number already.
    return { objects, elements: elements.rows, lineage: lineage.rows };
  } finally {
    await client.query("rollback");
  }
}
