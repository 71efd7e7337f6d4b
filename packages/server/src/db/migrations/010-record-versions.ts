import { type Kysely, sql } from "kysely";

/**
 * What a past moment needs, kept by the database itself so that no write path can forget it:
 * - `app.keep_record_versions()`: the statement trigger of every entity table (model sync adds it
 *   with the type's `<type>__history` table). An update that changes a record's `updated_at` (every
 *   write of values or of the discontinued state does) copies the row as it was into the history
 *   table, valid from its `updated_at` until now. Rows of pending proposals are never copied.
 * - `app.jsonb_merge`: merges jsonb objects in order (the later key wins), to rebuild past versions
 *   from events when a history table is first made for a type that already holds records.
 * - an index on when each upload's changes were approved (a comparison's end may be an upload).
 * - `app.type_count_history`: each change of a type's exact count, so an unfiltered list as of a
 *   moment is counted without scanning its records (a moment before this migration scans).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create function app.keep_record_versions() returns trigger language plpgsql as $fn$
    declare
      names text;
      olds text;
    begin
      select string_agg(quote_ident(a.attname), ', ' order by a.attnum),
             string_agg('o.' || quote_ident(a.attname), ', ' order by a.attnum)
        into names, olds
        from pg_attribute a
        where a.attrelid = TG_RELID and a.attnum > 0 and not a.attisdropped;
      execute format(
        'insert into %I.%I (%s, valid_to) select %s, now() from old_rows o
           join new_rows n on n.entity_key_id = o.entity_key_id
           where not o.is_pending_new and o.updated_at <> n.updated_at',
        TG_TABLE_SCHEMA, TG_ARGV[0], names, olds);
      return null;
    end
  $fn$`.execute(db);

  await sql`create aggregate app.jsonb_merge(jsonb) (sfunc = jsonb_concat, stype = jsonb, initcond = '{}')`.execute(
    db,
  );

  // The moment an upload's changes were approved, which a comparison may start or end at.
  await sql`create index events_upload_approved_idx on app.events (source, decided_at)
    where status = 'approved' and source like 'upload:%'`.execute(db);

  await sql`create table app.type_count_history (
    context text not null,
    entity_type text not null,
    counted_at timestamptz not null default now(),
    delta bigint not null
  )`.execute(db);
  await sql`create index type_count_history_idx
    on app.type_count_history (context, entity_type, counted_at) include (delta)`.execute(db);
  await sql`insert into app.type_count_history (context, entity_type, delta)
    select context, entity_type, row_count from app.type_counts`.execute(db);
  // Changes, not totals: two writes of one type in flight at once commit in either order, and
  // the sum of the changes made by transactions started up to a moment is exact either way.
  await sql`create function app.log_type_count() returns trigger language plpgsql as $fn$
    begin
      insert into app.type_count_history (context, entity_type, delta)
        values (new.context, new.entity_type,
                new.row_count - coalesce(case when TG_OP = 'UPDATE' then old.row_count end, 0));
      return null;
    end
  $fn$`.execute(db);
  await sql`create trigger type_counts_history after insert or update on app.type_counts
    for each row execute function app.log_type_count()`.execute(db);
}
