import { type Kysely, sql } from "kysely";
import { SYSTEM_COLUMNS } from "../../packages/server/src/model/model.ts";
import { BENCH_CONTEXT, BENCH_SCHEMA, BENCH_TYPE } from "./model.ts";

export const SEED_USER = "bench";

/** The name every StartsWith measurement filters on: about 1 row in 256 (hex md5 prefix). */
export const NAME_PREFIX = "ab";

/**
 * Seeds `n` approved item records set-based, inside PostgreSQL: one insert ... select from
 * generate_series for the rows and one for their approved 'Create' history events (with the
 * events' ids set so each record's last_event_id is right without a second pass), then the exact
 * count in app.type_counts. The type's secondary indexes are dropped for the load and built again
 * from their own definitions, which is several times faster than maintaining them row by row.
 * Answers the seconds it took.
 */
export async function seedItems(db: Kysely<unknown>, n: number): Promise<number> {
  const started = performance.now();
  const table = sql.table(`${BENCH_SCHEMA}.${BENCH_TYPE}`);
  await db.connection().execute(async (conn) => {
    await sql`set maintenance_work_mem = '256MB'`.execute(conn);
    const { rows: indexes } = await sql<{ indexname: string; indexdef: string }>`
      select i.indexname, i.indexdef from pg_indexes i
      where i.schemaname = ${BENCH_SCHEMA} and i.tablename = ${BENCH_TYPE}
        and i.indexname not in (
          select c.conname from pg_constraint c where c.conrelid = ${`${BENCH_SCHEMA}.${BENCH_TYPE}`}::regclass)`.execute(
      conn,
    );
    const { rows: counts } = await sql<{ n: number }>`
      select count(*)::int as n from ${table}`.execute(conn);
    if (counts[0].n > 0) throw new Error("the bench table is not empty");
    const { rows: base } = await sql<{ id: number }>`
      select coalesce(max(event_id), 0)::bigint as id from app.events`.execute(conn);
    const eventBase = Number(base[0].id);

    await conn.transaction().execute(async (tx) => {
      for (const index of indexes)
        await sql`drop index ${sql.id(BENCH_SCHEMA, index.indexname)}`.execute(tx);
      await sql`
        insert into ${table}
          (entity_key_id, code, name, category, region, amount, quantity, active, valid_from, score,
           description, created_by, updated_by, last_event_id)
        overriding system value
        select i,
          'IT' || lpad(i::text, 7, '0'),
          initcap(substr(md5(i::text), 1, 10)),
          (array['alpha','bravo','charlie','delta','echo','foxtrot','golf','hotel','india','juliet',
                 'kilo','lima','mike','november','oscar','papa','quebec','romeo','sierra','tango'])[(1 + i % 20)::int],
          'Region ' || (i % 50),
          round(((i * 7919) % 100000) / 100.0, 2),
          i % 1000,
          i % 10 <> 0,
          date '2000-01-01' + (i % 9000)::int,
          case when i % 7 = 0 then null else (i * 31) % 1000 end,
          'Description of item ' || i || ' in ' || substr(md5((i * 13)::text), 1, 16),
          ${SEED_USER}, ${SEED_USER}, ${eventBase} + i
        from generate_series(1, ${n}::bigint) as i`.execute(tx);
      const hidden = sql.raw(`array[${SYSTEM_COLUMNS.map((c) => `'${c}'`).join(",")}]`);
      await sql`
        insert into app.events
          (event_id, context, entity_type, entity_key_id, action, status, new_values, base_version,
           source, created_by, created_at, decided_by, decided_at, effective_from)
        overriding system value
        select t.last_event_id, ${BENCH_CONTEXT}, ${BENCH_TYPE}, t.entity_key_id, 'Create', 'approved',
          to_jsonb(t) - ${hidden}, 1, 'bench', ${SEED_USER}, t.created_at, ${SEED_USER}, t.created_at,
          t.created_at
        from ${table} t`.execute(tx);
      await sql`select setval(pg_get_serial_sequence(${`${BENCH_SCHEMA}.${BENCH_TYPE}`}, 'entity_key_id'), ${n}::bigint)`.execute(
        tx,
      );
      await sql`select setval(pg_get_serial_sequence('app.events', 'event_id'), ${eventBase + n}::bigint)`.execute(
        tx,
      );
      await sql`
        insert into app.type_counts (context, entity_type, row_count)
        values (${BENCH_CONTEXT}, ${BENCH_TYPE}, ${n})
        on conflict (context, entity_type) do update set row_count = excluded.row_count`.execute(
        tx,
      );
      for (const index of indexes) await sql.raw(index.indexdef).execute(tx);
    });
    // Statistics for the planner and a visibility map for index-only scans, as autovacuum would leave them.
    await sql`vacuum analyze ${table}`.execute(conn);
    await sql`vacuum analyze app.events`.execute(conn);
    // Writes the seed's dirty pages out now, so no checkpoint of the load runs during the measurements.
    await sql`checkpoint`.execute(conn).catch(() => undefined);
  });
  return (performance.now() - started) / 1000;
}
