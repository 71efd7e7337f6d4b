import net from "node:net";
import type {
  CreateWebhookRequest,
  MsgBody,
  UpdateWebhookRequest,
  WebhookDeliveries,
  WebhookDeliveriesRequest,
  WebhookDelivery,
  WebhookFields,
  WebhookList,
  WebhookSecret,
  WebhookSubscription,
} from "@ledgerline/contract";
import { recordSecurityEvent, type SecurityEventKind } from "../audit/audit.service.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { WebhooksConfig } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { BadRequestError, ConflictError, NotFoundError } from "../errors.ts";
import type { ContextModel, Model } from "../model/model.ts";
import { findContext } from "../model/model.ts";
import {
  type DeliveryRow,
  deliveryLog,
  queueAgain,
  subscriptionOfDelivery,
} from "./deliveries.repository.ts";
import { refusedAddress } from "./outgoing-post.ts";
import { newSecret, webhookIdOf } from "./signing.ts";
import {
  insertSubscription,
  removeSubscription,
  rotateSecret,
  type SubscriptionRow,
  setStatus,
  subscriptionById,
  subscriptionsOf,
  updateSubscription,
} from "./subscriptions.repository.ts";

function subscriptionOf(row: SubscriptionRow): WebhookSubscription {
  return {
    subscriptionId: row.subscription_id,
    context: row.context,
    url: row.url,
    entityTypes: row.entity_types,
    kinds: row.kinds,
    status: row.status,
    pausedReason: row.paused_reason,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    previousSecretUntil: row.previous_secret_until?.toISOString() ?? null,
    queued: row.queued,
    failed: row.failed,
    lastDeliveredAt: row.last_delivered_at?.toISOString() ?? null,
  };
}

function deliveryOf(row: DeliveryRow): WebhookDelivery {
  return {
    deliveryId: row.delivery_id,
    webhookId: webhookIdOf(row.event_id),
    kind: row.kind,
    status: row.status,
    attempts: row.attempts,
    answerCode: row.answer_code,
    reason: row.reason,
    createdAt: row.created_at.toISOString(),
    lastAttemptAt: row.last_attempt_at?.toISOString() ?? null,
    nextAttemptAt: row.status === "queued" ? row.next_attempt_at.toISOString() : null,
    deliveredAt: row.delivered_at?.toISOString() ?? null,
  };
}

function contextOf(model: Model, name: string): ContextModel {
  const context = findContext(model, name);
  if (!context) throw new NotFoundError(`Unknown application '${name}'`);
  return context;
}

/**
 * The fields as stored, or a clear refusal: an http(s) address without credentials (they would
 * be shown and logged; receivers check the signature instead), not a private address written as
 * one (names are checked at each delivery), types of the application, each kind once.
 */
function checkedFields(
  context: ContextModel,
  fields: WebhookFields,
  config: WebhooksConfig,
): WebhookFields {
  let url: URL;
  try {
    url = new URL(fields.url);
  } catch {
    throw new BadRequestError(`'${fields.url}' is not a web address`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new BadRequestError("A webhook's address starts with https:// (or http://)");
  if (url.username || url.password)
    throw new BadRequestError(
      "A webhook's address may not hold a user name or password: receivers check the signature",
    );
  const host = url.hostname.replace(/^\[|\]$/g, "");
  const refused = net.isIP(host) ? refusedAddress(host, config.allowPrivate) : undefined;
  if (refused) throw new BadRequestError(`Refused: ${refused}`);
  const unknown = fields.entityTypes.filter((t) => !context.entityTypes.some((e) => e.name === t));
  if (unknown.length > 0)
    throw new BadRequestError(`Unknown entity type '${unknown[0]}' in '${context.uiName}'`);
  return {
    url: url.toString(),
    entityTypes: [...new Set(fields.entityTypes)],
    kinds: [...new Set(fields.kinds)],
  };
}

/** Who changes a webhook and from where, for the audit trail. */
export interface WebhookChangeBy {
  user: CurrentUser;
  /** The client's address (request.ip). */
  ip: string;
}

/** Records a change of a webhook in the audit trail: the address is its subject. */
function audit(
  db: Db,
  kind: SecurityEventKind,
  by: WebhookChangeBy,
  row: Pick<SubscriptionRow, "subscription_id" | "context" | "url">,
  detail: Record<string, unknown> = {},
): Promise<void> {
  return recordSecurityEvent(db, {
    kind,
    actor: by.user.username,
    subject: row.url,
    ip: by.ip,
    detail: { subscriptionId: row.subscription_id, context: row.context, ...detail },
  });
}

async function existing(db: Db, subscriptionId: number): Promise<SubscriptionRow> {
  const row = await subscriptionById(db, subscriptionId);
  if (!row) throw new NotFoundError(`No webhook subscription has the id ${subscriptionId}`);
  return row;
}

/** The subscriptions of an application: POST /api/webhooks/list. */
export async function listWebhooks(db: Db, model: Model, context: string): Promise<WebhookList> {
  const rows = await subscriptionsOf(db, contextOf(model, context).name);
  return { subscriptions: rows.map(subscriptionOf) };
}

/** A new subscription; its secret is in this answer only. */
export async function createWebhook(
  db: Db,
  model: Model,
  config: WebhooksConfig,
  by: WebhookChangeBy,
  request: CreateWebhookRequest,
): Promise<WebhookSecret> {
  const context = contextOf(model, request.context);
  const fields = checkedFields(context, request, config);
  const secret = newSecret();
  const row = await db.transaction().execute(async (tx) => {
    const id = await insertSubscription(tx, {
      ...fields,
      context: context.name,
      secret,
      createdBy: by.user.username,
    });
    const created = await existing(tx, id);
    await audit(tx, "webhook-created", by, created, {
      entityTypes: fields.entityTypes,
      kinds: fields.kinds,
    });
    return created;
  });
  const subscription = subscriptionOf(row);
  return { subscription, secret, Msg: `Webhook to ${fields.url} created` };
}

/** Changes a subscription's address, types and kinds; its secret stays. */
export async function updateWebhook(
  db: Db,
  model: Model,
  config: WebhooksConfig,
  by: WebhookChangeBy,
  request: UpdateWebhookRequest,
): Promise<WebhookSubscription> {
  const row = await existing(db, request.subscriptionId);
  const fields = checkedFields(contextOf(model, row.context), request, config);
  return db.transaction().execute(async (tx) => {
    await updateSubscription(tx, row.subscription_id, fields);
    const updated = await existing(tx, row.subscription_id);
    await audit(tx, "webhook-updated", by, updated, {
      was: row.url,
      entityTypes: fields.entityTypes,
      kinds: fields.kinds,
    });
    return subscriptionOf(updated);
  });
}

/** A new secret; the old one keeps signing beside it for the configured overlap. */
export async function rotateWebhookSecret(
  db: Db,
  config: WebhooksConfig,
  by: WebhookChangeBy,
  subscriptionId: number,
): Promise<WebhookSecret> {
  const row = await existing(db, subscriptionId);
  const secret = newSecret();
  const subscription = await db.transaction().execute(async (tx) => {
    await rotateSecret(tx, row.subscription_id, secret, config.secretOverlapHours);
    await audit(tx, "webhook-secret-rotated", by, row, {
      overlapHours: config.secretOverlapHours,
    });
    return subscriptionOf(await existing(tx, row.subscription_id));
  });
  const until = subscription.previousSecretUntil;
  return {
    subscription,
    secret,
    Msg: until
      ? `New secret made; the previous one also signs until ${until}`
      : "New secret made; the previous one no longer signs",
  };
}

/** Pauses a subscription by hand (its deliveries wait) or resumes it (they go). */
export async function setWebhookStatus(
  db: Db,
  by: WebhookChangeBy,
  subscriptionId: number,
  status: "active" | "paused",
): Promise<MsgBody> {
  const row = await existing(db, subscriptionId);
  const changed = await db.transaction().execute(async (tx) => {
    const reason = status === "paused" ? `Paused by ${by.user.username}` : null;
    if (!(await setStatus(tx, row.subscription_id, status, reason))) return false;
    await audit(tx, status === "paused" ? "webhook-paused" : "webhook-resumed", by, row);
    return true;
  });
  const word = status === "paused" ? "paused" : "resumed";
  return {
    Msg: changed ? `Webhook to ${row.url} ${word}` : `Webhook to ${row.url} was already ${word}`,
  };
}

/** Removes a subscription: nothing more is delivered to it (its log is kept). */
export async function removeWebhook(
  db: Db,
  by: WebhookChangeBy,
  subscriptionId: number,
): Promise<MsgBody> {
  const row = await existing(db, subscriptionId);
  await db.transaction().execute(async (tx) => {
    await removeSubscription(tx, row.subscription_id, by.user.username);
    await audit(tx, "webhook-removed", by, row);
  });
  return { Msg: `Webhook to ${row.url} removed` };
}

/** A subscription's delivery log, newest first. */
export async function webhookDeliveries(
  db: Db,
  request: WebhookDeliveriesRequest,
): Promise<WebhookDeliveries> {
  const row = await existing(db, request.subscriptionId);
  const rows = await deliveryLog(db, row.subscription_id, {
    before: request.before,
    limit: request.limit ?? 100,
  });
  return { deliveries: rows.map(deliveryOf) };
}

/** 'Send again': the delivery is queued at once, with the same `webhook-id`. */
export async function resendDelivery(db: Db, deliveryId: number): Promise<MsgBody> {
  const subscriptionId = await subscriptionOfDelivery(db, deliveryId);
  if (subscriptionId === undefined)
    throw new NotFoundError(`No webhook delivery has the id ${deliveryId}`);
  const row = await existing(db, subscriptionId);
  if (!(await queueAgain(db, deliveryId)))
    throw new ConflictError(`Delivery ${deliveryId} is being sent now; try again in a minute`);
  return {
    Msg:
      row.status === "paused"
        ? `Delivery ${deliveryId} queued; it goes once the webhook is resumed`
        : `Delivery ${deliveryId} queued to be sent again`,
  };
}
