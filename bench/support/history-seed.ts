import { type Kysely, sql } from "kysely";
import { historyNameOf } from "../../packages/server/src/model/sync/desired.ts";
import { BENCH_CONTEXT, BENCH_SCHEMA, BENCH_TYPE } from "./model.ts";
import { itemValueSql, SEED_USER, settleLoad, withoutSecondaryIndexes } from "./seed.ts";

const DAY_MS = 86_400_000;
/** Records created in the first days of the year; the rest trickle in over the remaining ones. */
const EARLY_SHARE = 0.98;
const EARLY_DAYS = 120;
const LATE_UNTIL_DAY = 360;
/** One record in ten with changes ends discontinued: its last change is a Delete. */
const DELETED_DIGIT = 3;

/**
 * The year the history spans and the moments the benchmark reads, all at midnight UTC: the count
 * log is summed per day, so it is exact at day boundaries.
 */
export interface HistoryTimeline {
  /** The year's first moment: 365 days before today's midnight. */
  start: string;
  /** Today's midnight, after the last event. */
  end: string;
  /** Half-way through the year (day 183): the as-of moment, and the comparison's end. */
  half: string;
  /** 30 days before `half`: the comparison's start. */
  monthBefore: string;
}

export function historyTimeline(now = Date.now()): HistoryTimeline {
  const end = Math.floor(now / DAY_MS) * DAY_MS;
  const start = end - 365 * DAY_MS;
  const half = start + 183 * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    start: iso(start),
    end: iso(end),
    half: iso(half),
    monthBefore: iso(half - 30 * DAY_MS),
  };
}

/**
 * Record `r`'s name after `w` value changes: odd changes rename it, so versions 2 and 3 share a
 * name (w = 1, 2), as do 4 and 5.
 */
function nameSql(r: string, w: string): string {
  return `case when ${w} = 0 then ${itemValueSql(r).name}
    else initcap(substr(md5(${r} || '.' || (${w} - (${w} + 1) % 2)), 1, 10)) end`;
}

/** Record `r`'s amount after `w` value changes: every change sets a new one. */
function amountSql(r: string, w: string): string {
  return `case when ${w} = 0 then ${itemValueSql(r).amount}
    else round(((${r} * 7919 + ${w} * 15485863) % 100000) / 100.0, 2) end`;
}

/** Every attribute of record `r` after `w` value changes. */
function valuesSql(r: string, w: string): Record<string, string> {
  return { ...itemValueSql(r), name: nameSql(r, w), amount: amountSql(r, w) };
}

function jsonSql(values: Record<string, string>): string {
  return `jsonb_build_object(${Object.entries(values)
    .map(([name, value]) => `'${name}', ${value}`)
    .join(", ")})`;
}

/** The attributes change `w` sets (amount, and name when w is odd), valued after `valuesAt` changes. */
function changedJsonSql(r: string, w: string, valuesAt: string): string {
  return `jsonb_build_object('amount', ${amountSql(r, valuesAt)})
    || case when ${w} % 2 = 1 then jsonb_build_object('name', ${nameSql(r, valuesAt)}) else '{}'::jsonb end`;
}

export interface HistorySeed {
  seconds: number;
  events: number;
  historyRows: number;
  /** Approved, not discontinued records now. */
  currentCount: number;
}

/**
 * Seeds a year of history set-based, inside PostgreSQL, as the server would have written it with
 * web edits applied at once (DESIGN.md §7): `n` records, each created by an approved 'Create' in
 * the first part of the year, and `n` approved changes (an 'Update' of amount, and of name every
 * other time; a record's last change is a 'Delete' for one record in ten) at random moments between
 * the record's creation and the year's end. One temporary table numbers every version of every
 * record (its moment, the moment the next one replaced it, its event id in time order); from it:
 * - the table holds each record's last version (`version`, `updated_at` = its event's `decided_at`);
 * - `<type>__history` holds every earlier version, valid from its `updated_at` until `valid_to` (the
 *   next version's moment), as the trigger `app.keep_record_versions` copies them;
 * - `app.events` holds the events, with old and new values of the changed attributes;
 * - `app.type_counts` holds today's count and `app.type_count_history` its changes summed per day
 *   (after one midnight, up to and including the next), stamped with the day's last change: exact
 *   at every midnight, even for a change made exactly then.
 * The tables' secondary indexes are dropped for the load and built again; then ANALYZE.
 */
export async function seedHistory(
  db: Kysely<unknown>,
  n: number,
  timeline: HistoryTimeline,
): Promise<HistorySeed> {
  if (n < 100) throw new Error("the history seed needs at least 100 records");
  const started = performance.now();
  const early = Math.round(n * EARLY_SHARE);
  const late = n - early;
  const table = `${BENCH_SCHEMA}.${BENCH_TYPE}`;
  const history = `${BENCH_SCHEMA}.${historyNameOf(BENCH_TYPE)}`;
  const current = valuesSql("v.r", "v.w");
  const columns = Object.keys(current).join(", ");
  const system =
    "is_deleted, version, created_at, created_by, updated_at, updated_by, last_event_id";
  const rowSql = `v.r, ${Object.values(current).join(",\n      ")},
      v.action = 'Delete', v.version, v.created_at, '${SEED_USER}', v.at, '${SEED_USER}', v.event_id`;
  // Days after the start at which record r was created: evenly over the first days, then the rest.
  const createdDay = `case when r <= ${early} then (r - 1) * ${EARLY_DAYS}.0 / ${early}
    else ${EARLY_DAYS} + (r - ${early} - 0.5) * ${LATE_UNTIL_DAY - EARLY_DAYS}.0 / ${late} end`;
  // A uniform number in (0, 1) and a record, from hashes of the change's number.
  const hash = (salt: string) => `('x' || substr(md5('${salt}' || e), 1, 8))::bit(32)::bigint`;

  const result = { events: 0, historyRows: 0, currentCount: 0 };
  await db.connection().execute(async (conn) => {
    await sql`set maintenance_work_mem = '256MB'`.execute(conn);
    const { rows: base } = await sql<{ id: string; rows: string }>`
      select coalesce((select max(event_id) from app.events), 0)::bigint as id,
        (select count(*) from ${sql.table(table)}) as rows`.execute(conn);
    if (Number(base[0].rows) > 0) throw new Error("the bench table is not empty");
    const eventBase = Number(base[0].id);

    await conn.transaction().execute(async (tx) => {
      await sql`
        create temporary table bench_versions on commit drop as
        with records as (
          select r, ${timeline.start}::timestamptz
            + make_interval(secs => 86400 * (${sql.raw(createdDay)})::float8) as created_at
          from generate_series(1, ${n}::bigint) r
        ),
        changes as (
          select 1 + ${sql.raw(hash("r"))} % ${n}::bigint as r,
            ((${sql.raw(hash("u"))} + 0.5) / 4294967296.0)::float8 as u
          from generate_series(1, ${n}::bigint) e
        ),
        versions as (
          select r, created_at, created_at as at from records
          union all
          select c.r, rec.created_at, rec.created_at + (${timeline.end}::timestamptz - rec.created_at) * c.u
          from changes c join records rec using (r)
        ),
        numbered as (
          select r, created_at, at, row_number() over w as version, lead(at) over w as valid_to
          from versions window w as (partition by r order by at)
        ),
        acted as (
          select *, case when version = 1 then 'Create'
              when valid_to is null and r % 10 = ${DELETED_DIGIT} then 'Delete' else 'Update' end as action
          from numbered
        )
        select r, created_at, at, valid_to, version::int as version, action,
          (version - case action when 'Delete' then 2 else 1 end)::int as w,
          ${eventBase} + row_number() over (order by at, r) as event_id
        from acted`.execute(tx);

      await withoutSecondaryIndexes(tx, [table, history, "app.events"], async () => {
        await sql`
          insert into ${sql.table(table)} (entity_key_id, ${sql.raw(columns)}, ${sql.raw(system)})
          overriding system value
          select ${sql.raw(rowSql)} from bench_versions v where v.valid_to is null order by v.r`.execute(
          tx,
        );
        const copied = await sql`
          insert into ${sql.table(history)} (entity_key_id, ${sql.raw(columns)}, ${sql.raw(system)}, is_pending_new, valid_to)
          select ${sql.raw(rowSql)}, false, v.valid_to from bench_versions v where v.valid_to is not null
          order by v.valid_to`.execute(tx);
        result.historyRows = Number(copied.numAffectedRows ?? 0);
        const written = await sql`
          insert into app.events
            (event_id, context, entity_type, entity_key_id, action, status, old_values, new_values,
             base_version, source, created_by, created_at, decided_by, decided_at, effective_from)
          overriding system value
          select v.event_id, ${BENCH_CONTEXT}, ${BENCH_TYPE}, v.r, v.action, 'approved',
            case v.action when 'Update' then ${sql.raw(changedJsonSql("v.r", "v.w", "v.w - 1"))}
              when 'Delete' then ${sql.raw(jsonSql(current))} end,
            case v.action when 'Create' then ${sql.raw(jsonSql(current))}
              when 'Update' then ${sql.raw(changedJsonSql("v.r", "v.w", "v.w"))} end,
            greatest(v.version - 1, 1), 'web', ${SEED_USER}, v.at, ${SEED_USER}, v.at, v.at
          from bench_versions v order by v.event_id`.execute(tx);
        result.events = Number(written.numAffectedRows ?? 0);
      });

      await sql`select setval(pg_get_serial_sequence(${table}, 'entity_key_id'), ${n}::bigint)`.execute(
        tx,
      );
      await sql`select setval(pg_get_serial_sequence('app.events', 'event_id'), max(event_id)) from app.events`.execute(
        tx,
      );
      const { rows: counted } = await sql<{ n: string }>`
        insert into app.type_counts (context, entity_type, row_count)
        select ${BENCH_CONTEXT}, ${BENCH_TYPE}, count(*) from ${sql.table(table)} where not is_deleted
        on conflict (context, entity_type) do update set row_count = excluded.row_count
        returning row_count as n`.execute(tx);
      result.currentCount = Number(counted[0].n);
      // The insert above logged today's whole count as one change: the log is the year's instead.
      await sql`delete from app.type_count_history
        where context = ${BENCH_CONTEXT} and entity_type = ${BENCH_TYPE}`.execute(tx);
      await sql`
        insert into app.type_count_history (context, entity_type, counted_at, delta)
        select ${BENCH_CONTEXT}, ${BENCH_TYPE}, max(at), sum(case action when 'Create' then 1 else -1 end)
        from bench_versions where action in ('Create', 'Delete')
        group by ceil(extract(epoch from at - ${timeline.start}::timestamptz) / 86400)`.execute(tx);
    });
    await settleLoad(conn, [table, history, "app.events", "app.type_count_history"]);
  });
  return { seconds: (performance.now() - started) / 1000, ...result };
}
