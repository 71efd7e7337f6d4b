import type { WebhookFields, WebhookKind } from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

export interface SubscriptionRow {
  subscription_id: number;
  context: string;
  url: string;
  entity_types: string[];
  kinds: WebhookKind[];
  status: "active" | "paused";
  paused_reason: string | null;
  created_by: string;
  created_at: Date;
  previous_secret_until: Date | null;
  queued: number;
  failed: number;
  last_delivered_at: Date | null;
}

const SUBSCRIPTION_COLUMNS = sql`s.subscription_id::float8 as subscription_id, s.context, s.url,
  s.entity_types, s.kinds, s.status, s.paused_reason, s.created_by, s.created_at,
  case when s.previous_secret_until > now() then s.previous_secret_until end as previous_secret_until,
  (select count(*) from app.webhook_deliveries d
    where d.subscription_id = s.subscription_id and d.status = 'queued')::int as queued,
  (select count(*) from app.webhook_deliveries d
    where d.subscription_id = s.subscription_id and d.status = 'failed')::int as failed,
  (select max(d.delivered_at) from app.webhook_deliveries d
    where d.subscription_id = s.subscription_id and d.status = 'delivered') as last_delivered_at`;

/** The subscriptions of a context that are not removed, oldest first. */
export async function subscriptionsOf(db: Db, context: string): Promise<SubscriptionRow[]> {
  const { rows } = await sql<SubscriptionRow>`select ${SUBSCRIPTION_COLUMNS}
    from app.webhook_subscriptions s where s.context = ${context} and s.removed_at is null
    order by s.subscription_id`.execute(db);
  return rows;
}

/** One subscription that is not removed, or undefined. */
export async function subscriptionById(
  db: Db,
  subscriptionId: number,
): Promise<SubscriptionRow | undefined> {
  const { rows } = await sql<SubscriptionRow>`select ${SUBSCRIPTION_COLUMNS}
    from app.webhook_subscriptions s
    where s.subscription_id = ${subscriptionId} and s.removed_at is null`.execute(db);
  return rows[0];
}

export async function insertSubscription(
  db: Db,
  subscription: WebhookFields & { context: string; secret: string; createdBy: string },
): Promise<number> {
  const { rows } = await sql<{ subscription_id: number }>`
    insert into app.webhook_subscriptions (context, url, entity_types, kinds, secret, created_by)
    values (${subscription.context}, ${subscription.url}, ${subscription.entityTypes}::text[],
      ${subscription.kinds}::text[], ${subscription.secret}, ${subscription.createdBy})
    returning subscription_id::float8 as subscription_id`.execute(db);
  return rows[0].subscription_id;
}

export async function updateSubscription(
  db: Db,
  subscriptionId: number,
  fields: WebhookFields,
): Promise<void> {
  await sql`update app.webhook_subscriptions set url = ${fields.url},
      entity_types = ${fields.entityTypes}::text[], kinds = ${fields.kinds}::text[]
    where subscription_id = ${subscriptionId}`.execute(db);
}

/** A new secret; the current one keeps signing beside it for `overlapHours`. */
export async function rotateSecret(
  db: Db,
  subscriptionId: number,
  secret: string,
  overlapHours: number,
): Promise<void> {
  await sql`update app.webhook_subscriptions set previous_secret = secret, secret = ${secret},
      previous_secret_until = now() + make_interval(secs => ${overlapHours * 3600})
    where subscription_id = ${subscriptionId}`.execute(db);
}

/**
 * Pauses a subscription (its deliveries wait) or resumes it (those due go at once); answers
 * whether it changed.
 */
export async function setStatus(
  db: Db,
  subscriptionId: number,
  status: "active" | "paused",
  reason: string | null,
): Promise<boolean> {
  const result = await sql`update app.webhook_subscriptions
    set status = ${status}, paused_reason = ${reason}
    where subscription_id = ${subscriptionId} and removed_at is null and status <> ${status}`.execute(
    db,
  );
  const changed = Number(result.numAffectedRows ?? 0) > 0;
  if (changed && status === "active")
    await sql`update app.webhook_deliveries set next_attempt_at = now()
      where subscription_id = ${subscriptionId} and status = 'queued'`.execute(db);
  return changed;
}

/**
 * Removes a subscription (kept, marked removed): nothing more is delivered to it, and what still
 * waited is marked given up, so that no outbox figure counts it as waiting.
 */
export async function removeSubscription(
  db: Db,
  subscriptionId: number,
  by: string,
): Promise<void> {
  await sql`update app.webhook_subscriptions set removed_at = now(), removed_by = ${by}
    where subscription_id = ${subscriptionId}`.execute(db);
  await sql`update app.webhook_deliveries set status = 'failed', reason = 'The webhook was removed',
      claimed_until = null
    where subscription_id = ${subscriptionId} and status = 'queued'`.execute(db);
}

/**
 * Whether a subscription of the context (of any context when undefined) wants `kind` (of one of
 * `types`, when given).
 */
export async function anySubscriber(
  db: Db,
  context: string | undefined,
  kind: WebhookKind,
  types?: readonly string[],
): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`select exists (
      select 1 from app.webhook_subscriptions s
      where ${wants(context, kind, types ?? [])}) as found`.execute(db);
  return rows[0].found;
}

/**
 * A condition on subscription `s`: it wants an event of `kind` of the types (none: all) of the
 * context (any context when undefined).
 */
export const wants = (
  context: string | undefined,
  kind: WebhookKind,
  types: readonly string[],
) => sql`
  ${context === undefined ? sql`true` : sql`s.context = ${context}`}
  and s.removed_at is null and ${kind} = any(s.kinds)
  and (cardinality(s.entity_types) = 0 or cardinality(${[...types]}::text[]) = 0
       or s.entity_types && ${[...types]}::text[])`;
