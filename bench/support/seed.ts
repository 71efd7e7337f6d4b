import { type Kysely, sql } from "kysely";
import { SYSTEM_COLUMNS } from "../../packages/server/src/model/model.ts";
import type { BenchDatabase } from "./app.ts";
import { BENCH_CONTEXT, BENCH_SCHEMA, BENCH_TYPE } from "./model.ts";
import { ITEM_LAYOUT } from "./workload.ts";

export const SEED_USER = "bench";

/** The name every StartsWith measurement filters on: about 1 row in 256 (hex md5 prefix). */
export const NAME_PREFIX = "ab";

/**
 * The seed's value of each attribute of item `i` (an SQL expression of a bigint), in the table's
 * column order: what every seeded record holds when it is created.
 */
export function itemValueSql(i: string): Record<string, string> {
  return {
    // Seven digits, more from 10,000,000 on (lpad would cut them and repeat a code).
    code: `'IT' || lpad(${i}::text, greatest(7, length(${i}::text)), '0')`,
    name: `initcap(substr(md5(${i}::text), 1, 10))`,
    category: `(array['alpha','bravo','charlie','delta','echo','foxtrot','golf','hotel','india','juliet',
      'kilo','lima','mike','november','oscar','papa','quebec','romeo','sierra','tango'])[(1 + ${i} % 20)::int]`,
    region: `'Region ' || (${i} % 50)`,
    amount: `round(((${i} * 7919) % 100000) / 100.0, 2)`,
    quantity: `${i} % 1000`,
    active: `${i} % 10 <> 0`,
    valid_from: `date '2000-01-01' + (${i} % 9000)::int`,
    score: `case when ${i} % 7 = 0 then null else (${i} * 31) % 1000 end`,
    description: `'Description of item ' || ${i} || ' in ' || substr(md5((${i} * 13)::text), 1, 16)`,
  };
}

/**
 * Runs `load` with the indexes of `tables` ("schema.table") that no constraint owns dropped, then
 * builds them again from their own definitions, which is several times faster than maintaining
 * them row by row. Run it inside a transaction, so a failed load leaves every index in place.
 */
export async function withoutSecondaryIndexes(
  db: Kysely<unknown>,
  tables: readonly string[],
  load: () => Promise<void>,
): Promise<void> {
  const indexes: { schema: string; indexname: string; indexdef: string }[] = [];
  for (const qualified of tables) {
    const [schema, table] = qualified.split(".");
    const { rows } = await sql<{ indexname: string; indexdef: string }>`
      select i.indexname, i.indexdef from pg_indexes i
      where i.schemaname = ${schema} and i.tablename = ${table}
        and i.indexname not in (
          select c.conname from pg_constraint c where c.conrelid = ${qualified}::regclass)`.execute(
      db,
    );
    indexes.push(...rows.map((r) => ({ schema, ...r })));
  }
  for (const index of indexes)
    await sql`drop index ${sql.id(index.schema, index.indexname)}`.execute(db);
  await load();
  for (const index of indexes) await sql.raw(index.indexdef).execute(db);
}

/**
 * Statistics for the planner and a visibility map for index-only scans, as autovacuum would leave
 * them; then the load's dirty pages are written out, so no checkpoint of the load runs during the
 * measurements.
 */
export async function settleLoad(db: Kysely<unknown>, tables: readonly string[]): Promise<void> {
  for (const table of tables) await sql`vacuum analyze ${sql.table(table)}`.execute(db);
  await sql`checkpoint`.execute(db).catch(() => undefined);
}

/**
 * Seeds `n` approved item records set-based, inside PostgreSQL: one insert ... select from
 * generate_series for the rows and one for their approved 'Create' history events (with the
 * events' ids set so each record's last_event_id is right without a second pass), then the exact
 * count in app.type_counts. The type's secondary indexes are dropped for the load and built again.
 * Answers the seconds it took.
 */
export async function seedItems(db: Kysely<unknown>, n: number): Promise<number> {
  const started = performance.now();
  const qualified = `${BENCH_SCHEMA}.${BENCH_TYPE}`;
  const table = sql.table(qualified);
  const values = itemValueSql("i");
  await db.connection().execute(async (conn) => {
    await sql`set maintenance_work_mem = '256MB'`.execute(conn);
    const { rows: counts } = await sql<{ n: number }>`
      select count(*)::int as n from ${table}`.execute(conn);
    if (counts[0].n > 0) throw new Error("the bench table is not empty");
    const { rows: base } = await sql<{ id: number }>`
      select coalesce(max(event_id), 0)::bigint as id from app.events`.execute(conn);
    const eventBase = Number(base[0].id);

    await conn.transaction().execute((tx) =>
      withoutSecondaryIndexes(tx, [qualified], async () => {
        await sql`
          insert into ${table}
            (entity_key_id, ${sql.raw(Object.keys(values).join(", "))}, created_by, updated_by, last_event_id)
          overriding system value
          select i, ${sql.raw(Object.values(values).join(",\n            "))},
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
        await sql`select setval(pg_get_serial_sequence(${qualified}, 'entity_key_id'), ${n}::bigint)`.execute(
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
      }),
    );
    await settleLoad(conn, [qualified, "app.events"]);
  });
  return (performance.now() - started) / 1000;
}

/**
 * One upload (a row of app.uploads) whose pending events change every item: `name` and `amount`
 * get new values, marked with `mark`; an event holds the changed attributes only, old and new, as
 * an upload writes them. Answers the upload's id.
 */
export async function seedPendingUpload(bench: BenchDatabase, mark: string): Promise<number> {
  const [upload] = (await bench.raw(
    `insert into app.uploads (context, entity_type, layout, file_name, created_by, finished_at,
       outcome)
     values ($1, $2, $3, $4, $5, now(), 'succeeded') returning upload_id::int as id`,
    [BENCH_CONTEXT, BENCH_TYPE, ITEM_LAYOUT, `${mark}.xlsx`, SEED_USER],
  )) as { id: number }[];
  await bench.raw(
    `insert into app.events (context, entity_type, entity_key_id, action, status, old_values,
       new_values, base_version, source, created_by, created_at, effective_from)
     select $1, $2, t.entity_key_id, 'Change', 'pending',
       jsonb_build_object('name', t.name, 'amount', t.amount),
       jsonb_build_object('name', $4 || ' ' || t.name, 'amount', coalesce(t.amount, 0) + 1),
       t.version, 'upload:' || $3::text, $5, now(), now()
     from ${BENCH_SCHEMA}.${BENCH_TYPE} t order by t.entity_key_id`,
    [BENCH_CONTEXT, BENCH_TYPE, upload.id, mark, SEED_USER],
  );
  await bench.raw("vacuum analyze app.events", []);
  return upload.id;
}
