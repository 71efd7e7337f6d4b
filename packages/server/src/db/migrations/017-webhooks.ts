import { type Kysely, sql } from "kysely";

/**
 * Webhooks (webhooks/): the subscriptions administrators register per application, the events
 * to tell them of, and one delivery per event and subscription: the outbox the sender claims from
 * (as e-mails are: a lease per claim, backoff between tries).
 * - `app.webhook_events`: what happened, once, with the body every delivery of it carries; its id
 *   makes the `webhook-id` header (`msg_<event_id>`), the same at every try and to every receiver.
 *   `bus_published_at`: when the event bus took it (null: not yet, or no bus); `changes.approved`
 *   is not for the bus, which carries each change itself.
 * - `app.feed_relays`: the event bus's place in the change feed (it was `app.bus_relay`) and now
 *   the webhooks' too, which turn each approving commit into one `changes.approved` event;
 *   `placed_at`: since when it runs (the bus takes the events written since).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table app.webhook_subscriptions (
    subscription_id bigint generated always as identity primary key,
    context text not null,
    url text not null,
    entity_types text[] not null,
    kinds text[] not null,
    secret text not null,
    previous_secret text,
    previous_secret_until timestamptz,
    status text not null default 'active' check (status in ('active', 'paused')),
    paused_reason text,
    created_by text not null,
    created_at timestamptz not null default now(),
    removed_at timestamptz,
    removed_by text
  )`.execute(db);
  await sql`create index webhook_subscriptions_context_idx on app.webhook_subscriptions (context)
    where removed_at is null`.execute(db);

  await sql`create table app.webhook_events (
    event_id bigint generated always as identity primary key,
    context text not null,
    kind text not null,
    entity_types text[] not null,
    payload jsonb not null,
    created_at timestamptz not null default now(),
    bus_published_at timestamptz
  )`.execute(db);
  await sql`create index webhook_events_bus_idx on app.webhook_events (event_id)
    where bus_published_at is null and kind <> 'changes.approved'`.execute(db);

  await sql`create table app.webhook_deliveries (
    delivery_id bigint generated always as identity primary key,
    subscription_id bigint not null references app.webhook_subscriptions,
    event_id bigint not null references app.webhook_events,
    status text not null default 'queued' check (status in ('queued', 'delivered', 'failed')),
    attempts int not null default 0,
    next_attempt_at timestamptz not null default now(),
    claimed_until timestamptz,
    answer_code int,
    reason text,
    created_at timestamptz not null default now(),
    last_attempt_at timestamptz,
    delivered_at timestamptz,
    unique (subscription_id, event_id)
  )`.execute(db);
  await sql`create index webhook_deliveries_due_idx on app.webhook_deliveries (next_attempt_at)
    where status = 'queued'`.execute(db);
  await sql`create index webhook_deliveries_failed_idx on app.webhook_deliveries (delivery_id)
    where status = 'failed'`.execute(db);
  await sql`create index webhook_deliveries_log_idx
    on app.webhook_deliveries (subscription_id, delivery_id desc)`.execute(db);

  await sql`alter table app.bus_relay rename to feed_relays`.execute(db);
  await sql`alter table app.feed_relays drop constraint bus_relay_pkey`.execute(db);
  await sql`alter table app.feed_relays drop column only_row`.execute(db);
  await sql`alter table app.feed_relays add column relay text not null default 'bus'`.execute(db);
  await sql`alter table app.feed_relays alter column relay drop default`.execute(db);
  await sql`alter table app.feed_relays add primary key (relay)`.execute(db);
  await sql`alter table app.feed_relays add column placed_at timestamptz not null default now()`.execute(
    db,
  );
}
