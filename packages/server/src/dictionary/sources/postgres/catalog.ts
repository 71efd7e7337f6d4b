import type pg from "pg";
import {
  type Catalog,
  type CatalogElement,
  type CatalogIndex,
  type CatalogLineage,
  type CatalogObject,
  LINEAGE,
  uniqueKeyText,
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
    case when r.relkind in ('v', 'm') then $1::text end as lineage,
    case when r.relkind in ('v', 'm') then pg_get_viewdef(r.oid, true) end as definition
  from rels r join pg_class c on c.oid = r.oid
  ${COMMENT("ds", "r.oid", "0")}
  order by 1, 2`;

// Each index of a table, partitioned table or materialized view (a primary or unique constraint's
// too, under its name): its key parts in order, a plain column by its name, an expression as
// pg_get_indexdef writes it, with DESC and a NULLS order other than the default from indoption.
const INDEXES = `
  with rels as (${RELATIONS})
  select r.schema, r.name as object, ic.relname as name, i.indisprimary as "primary",
    i.indisunique as "unique",
    array(select coalesce(a.attname::text, pg_get_indexdef(i.indexrelid, k + 1, true))
                 || case when i.indoption[k]::int & 1 = 1 then ' DESC' else '' end
                 || case i.indoption[k]::int & 3 when 2 then ' NULLS FIRST' when 1 then ' NULLS LAST' else '' end
          from generate_series(0, i.indnkeyatts::int - 1) k
          left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[k] and i.indkey[k] > 0
          order by k) as columns,
    array(select coalesce(a.attname::text, pg_get_indexdef(i.indexrelid, k + 1, true))
          from generate_series(i.indnkeyatts::int, i.indnatts::int - 1) k
          left join pg_attribute a on a.attrelid = i.indrelid and a.attnum = i.indkey[k] and i.indkey[k] > 0
          order by k) as include,
    case when am.amname <> 'btree' then am.amname::text end as method,
    pg_get_expr(i.indpred, i.indrelid, true) as "where",
    case when not i.indisvalid then 'invalid' end as state
  from rels r
  join pg_index i on i.indrelid = r.oid
  join pg_class ic on ic.oid = i.indexrelid
  join pg_am am on am.oid = ic.relam
  order by 1, 2, 3`;

type IndexRow = CatalogIndex & { schema: string; object: string };

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
    from keys group by conrelid, attnum),
  -- The key columns of unique indexes (a unique constraint's among them) but the primary key's.
  unique_keys as (
    select i.indrelid, i.indkey[k] as attnum, array_agg(ic.relname::text) as names
    from pg_index i
    join rels on rels.oid = i.indrelid
    join pg_class ic on ic.oid = i.indexrelid
    cross join lateral generate_series(0, i.indnkeyatts::int - 1) k
    where i.indisunique and not i.indisprimary and i.indkey[k] > 0
    group by 1, 2)
  select r.schema, r.name as object, a.attname as name, a.attnum as position,
         format_type(a.atttypid, a.atttypmod) as datatype, not a.attnotnull as nullable,
         case when a.attidentity in ('a', 'd') then 'generated ' || case a.attidentity when 'a' then 'always' else 'by default' end || ' as identity'
              when a.attgenerated = 's' then 'generated always as (' || pg_get_expr(ad.adbin, ad.adrelid) || ') stored'
              else pg_get_expr(ad.adbin, ad.adrelid) end as defaultvalue,
         coalesce(ck.primarykey, false) as primarykey, ck.foreignkey, uk.names as uniquekey,
         ds.description
  from rels r
  join pg_attribute a on a.attrelid = r.oid and a.attnum > 0 and not a.attisdropped
  left join pg_attrdef ad on ad.adrelid = a.attrelid and ad.adnum = a.attnum
  left join column_keys ck on ck.conrelid = a.attrelid and ck.attnum = a.attnum
  left join unique_keys uk on uk.indrelid = a.attrelid and uk.attnum = a.attnum
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
 * Reads the documented objects and their columns in one consistent, read-only snapshot: a few
 * set-based queries, the objects (with their indexes) first, handed to `objectsRead` as soon as
 * they are read.
 */
export async function readCatalog(
  client: pg.Client,
  objectsRead: (objects: CatalogObject[]) => void = () => undefined,
): Promise<Catalog> {
  await client.query("begin isolation level repeatable read read only");
  try {
    // Views and index expressions name every table, type and function with its schema, whatever
    // the import role's search_path is and becomes (columns' types and defaults keep to it, as
    // they always have).
    await client.query("set local search_path to pg_catalog");
    const found = await client.query<Omit<CatalogObject, "indexes">>(OBJECTS, [LINEAGE.catalog]);
    const indexes = await client.query<IndexRow>(INDEXES);
    await client.query("set local search_path to default");
    const indexesOf = new Map<string, CatalogIndex[]>();
    for (const { schema, object, ...index } of indexes.rows) {
      const key = `${schema}.${object}`;
      const list = indexesOf.get(key);
      if (list) list.push(index);
      else indexesOf.set(key, [index]);
    }
    const objects: CatalogObject[] = found.rows.map((o) => ({
      ...o,
      rowestimate: o.rowestimate === null ? null : Number(o.rowestimate),
      definition: o.definition === null ? null : o.definition.trim(),
      indexes: indexesOf.get(`${o.schema}.${o.name}`) ?? [],
    }));
    objectsRead(objects);
    const elements = await client.query<
      Omit<CatalogElement, "uniquekey"> & { uniquekey: string[] | null }
    >(ELEMENTS);
    const lineage = await client.query<CatalogLineage>(LINEAGE_READS);
    // attnum is a smallint, which the driver answers as a number already.
    return {
      objects,
      elements: elements.rows.map((e) => ({ ...e, uniquekey: uniqueKeyText(e.uniquekey ?? []) })),
      lineage: lineage.rows,
    };
  } finally {
    await client.query("rollback");
  }
}
