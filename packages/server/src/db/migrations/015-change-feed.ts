import { type Kysely, sql } from "kysely";

/**
 * The change feed's order: the order in which the transactions that approve changes commit.
 * Event ids and transaction ids are drawn when a transaction starts writing, so two that commit
 * out of that order would let a reader that follows them pass a change that becomes visible
 * later. Instead each such transaction takes the next position of `app.feed_clock` as it commits
 * (a deferred trigger, the last thing before the commit): the clock's row stays locked until the
 * commit is visible, so positions are given in commit order and none is ever given below one a
 * reader has seen.
 * - `app.events.approved_xid`: the transaction that approved the event (its insert's, or the
 *   approval's: changes/apply-events.ts sets it).
 * - `app.feed_commits`: each approving transaction's position and id.
 * - the first approved event of a transaction marks it (`app.feed_marks`, whose deferred trigger
 *   numbers it at the commit); the trigger's condition, checked per row without a function call,
 *   lets the others by.
 * The events approved before this migration form its own commit, position 1.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table app.events add column approved_xid xid8`.execute(db);
  await sql`alter table app.events alter column approved_xid set default pg_current_xact_id()`.execute(
    db,
  );
  await sql`create table app.feed_clock (
    only_row boolean primary key default true check (only_row),
    position bigint not null
  )`.execute(db);
  await sql`insert into app.feed_clock (position) values (0)`.execute(db);
  await sql`create table app.feed_commits (
    position bigint primary key,
    xid xid8 not null unique,
    committed_at timestamptz not null
  )`.execute(db);
  await sql`create table app.feed_marks (xid xid8 primary key)`.execute(db);

  await sql`create function app.feed_mark() returns trigger language plpgsql as $fn$
    begin
      perform set_config('ledgerline.feed_marked', 'on', true);
      insert into app.feed_marks values (pg_current_xact_id()) on conflict do nothing;
      return null;
    end
  $fn$`.execute(db);
  await sql`create function app.feed_commit() returns trigger language plpgsql as $fn$
    declare
      next_position bigint;
    begin
      update app.feed_clock set position = position + 1 returning position into next_position;
      insert into app.feed_commits values (next_position, new.xid, clock_timestamp());
      delete from app.feed_marks where xid = new.xid;
      return null;
    end
  $fn$`.execute(db);
  await sql`create trigger events_feed_insert after insert on app.events for each row
    when (new.status = 'approved'
      and current_setting('ledgerline.feed_marked', true) is distinct from 'on')
    execute function app.feed_mark()`.execute(db);
  await sql`create trigger events_feed_approve after update of status on app.events for each row
    when (new.status = 'approved' and old.status <> 'approved'
      and current_setting('ledgerline.feed_marked', true) is distinct from 'on')
    execute function app.feed_mark()`.execute(db);
  await sql`create constraint trigger feed_marks_commit after insert on app.feed_marks
    deferrable initially deferred for each row execute function app.feed_commit()`.execute(db);

  // One statement, so that the events and their mark belong to one transaction in any case.
  await sql`with approved as (
      update app.events set approved_xid = pg_current_xact_id() where status = 'approved' returning 1)
    insert into app.feed_marks select pg_current_xact_id() where exists (select 1 from approved)`.execute(
    db,
  );
  await sql`create index events_feed_idx on app.events (approved_xid, event_id)
    where status = 'approved'`.execute(db);
}
