import type { WebhookKind } from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

/** A claimed delivery with what its try needs. */
export interface DueDelivery {
  delivery_id: number;
  subscription_id: number;
  event_id: number;
  attempts: number;
  url: string;
  secrets: string[];
  body: string;
}

/**
 * Claims up to `limit` due deliveries of active subscriptions for `leaseSeconds`: a claimed
 * delivery is not handed to another sender until the lease ends, so it leaves once unless its
 * sender dies mid-way (then it leaves again, with the same `webhook-id`).
 */
export async function claimDueDeliveries(
  db: Db,
  limit: number,
  leaseSeconds: number,
): Promise<DueDelivery[]> {
  const { rows } = await sql<DueDelivery>`
    with claimed as (
      update app.webhook_deliveries set claimed_until = now() + make_interval(secs => ${leaseSeconds}),
        attempts = attempts + 1, last_attempt_at = now()
      where delivery_id in (
        select d.delivery_id from app.webhook_deliveries d
          join app.webhook_subscriptions s on s.subscription_id = d.subscription_id
        where d.status = 'queued' and d.next_attempt_at <= now()
          and (d.claimed_until is null or d.claimed_until < now())
          and s.status = 'active' and s.removed_at is null
        order by d.next_attempt_at, d.delivery_id limit ${limit}
        for update of d skip locked)
      returning delivery_id, subscription_id, event_id, attempts)
    select c.delivery_id::float8 as delivery_id, c.subscription_id::float8 as subscription_id,
      c.event_id::float8 as event_id, c.attempts, s.url,
      array_remove(array[s.secret,
        case when s.previous_secret_until > now() then s.previous_secret end], null) as secrets,
      ev.payload::text as body
    from claimed c join app.webhook_subscriptions s on s.subscription_id = c.subscription_id
      join app.webhook_events ev on ev.event_id = c.event_id
    order by c.delivery_id`.execute(db);
  return rows;
}

/** Records the receivers' acceptance, in one statement. */
export async function markDelivered(
  db: Db,
  delivered: readonly { deliveryId: number; answerCode: number }[],
): Promise<void> {
  if (delivered.length === 0) return;
  await sql`update app.webhook_deliveries d set status = 'delivered', delivered_at = now(),
      answer_code = a.code, reason = null, claimed_until = null
    from unnest(${delivered.map((d) => d.deliveryId)}::bigint[], ${delivered.map((d) => d.answerCode)}::int[])
      as a(delivery_id, code)
    where d.delivery_id = a.delivery_id`.execute(db);
}

/** Records a failed try: the delivery waits `retryInSeconds`, or is given up when that is null. */
export async function markFailedTry(
  db: Db,
  deliveryId: number,
  failure: { answerCode: number | null; reason: string },
  retryInSeconds: number | null,
): Promise<void> {
  await sql`update app.webhook_deliveries set answer_code = ${failure.answerCode},
      reason = ${failure.reason}, claimed_until = null,
      status = ${retryInSeconds === null ? "failed" : "queued"},
      next_attempt_at = now() + make_interval(secs => ${retryInSeconds ?? 0})
    where delivery_id = ${deliveryId}`.execute(db);
}

export interface DeliveryRow {
  delivery_id: number;
  event_id: number;
  kind: WebhookKind;
  status: "queued" | "delivered" | "failed";
  attempts: number;
  answer_code: number | null;
  reason: string | null;
  created_at: Date;
  last_attempt_at: Date | null;
  next_attempt_at: Date;
  delivered_at: Date | null;
}

/** A subscription's deliveries, newest first, older than `before` when given. */
export async function deliveryLog(
  db: Db,
  subscriptionId: number,
  page: { before?: number; limit: number },
): Promise<DeliveryRow[]> {
  const { rows } = await sql<DeliveryRow>`
    select d.delivery_id::float8 as delivery_id, d.event_id::float8 as event_id, ev.kind, d.status,
      d.attempts, d.answer_code, d.reason, d.created_at, d.last_attempt_at, d.next_attempt_at,
      d.delivered_at
    from app.webhook_deliveries d join app.webhook_events ev on ev.event_id = d.event_id
    where d.subscription_id = ${subscriptionId}
      and d.delivery_id < ${page.before ?? Number.MAX_SAFE_INTEGER}
    order by d.delivery_id desc limit ${page.limit}`.execute(db);
  return rows;
}

/** The subscription a delivery belongs to, or undefined. */
export async function subscriptionOfDelivery(
  db: Db,
  deliveryId: number,
): Promise<number | undefined> {
  const { rows } = await sql<{ subscription_id: number }>`
    select subscription_id::float8 as subscription_id from app.webhook_deliveries
    where delivery_id = ${deliveryId}`.execute(db);
  return rows[0]?.subscription_id;
}

/**
 * Queues a delivery again, due at once, with its tries counted afresh ('Send again'); not one a
 * sender holds now (it would go twice at once): answers whether it was queued.
 */
export async function queueAgain(db: Db, deliveryId: number): Promise<boolean> {
  const result = await sql`update app.webhook_deliveries set status = 'queued', attempts = 0,
      next_attempt_at = now(), claimed_until = null, delivered_at = null
    where delivery_id = ${deliveryId}
      and (claimed_until is null or claimed_until < now())`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}
