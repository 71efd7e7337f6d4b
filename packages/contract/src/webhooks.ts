import { z } from "zod";

/**
 * The kinds of event a webhook subscription may receive (each delivery's `type`): approved changes
 * (one event per approving commit and application, pointing into the change feed), an upload whose
 * changes are all decided, a published dictionary, a finished metadata import.
 */
export const WEBHOOK_KINDS = [
  "changes.approved",
  "upload.decided",
  "dictionary.published",
  "import.finished",
] as const;
export const WebhookKind = z.enum(WEBHOOK_KINDS);
export type WebhookKind = z.infer<typeof WebhookKind>;

/** What each kind is called on the Webhooks screen. */
export const WEBHOOK_KIND_TEXT: Readonly<Record<WebhookKind, string>> = {
  "changes.approved": "Changes approved",
  "upload.decided": "Upload decided",
  "dictionary.published": "Dictionary published",
  "import.finished": "Import finished",
};

export const WEBHOOK_STATUSES = ["active", "paused"] as const;
export const WebhookStatus = z.enum(WEBHOOK_STATUSES);

/** A subscription as lists show it: never its secret. */
export const WebhookSubscription = z.object({
  subscriptionId: z.number(),
  context: z.string(),
  url: z.string(),
  /** The types whose events it receives; empty: every type. */
  entityTypes: z.array(z.string()),
  kinds: z.array(WebhookKind),
  status: WebhookStatus,
  /** Why it was paused: by whom, or the failure that paused it. */
  pausedReason: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
  /** Until when deliveries are also signed with the secret before the last rotation. */
  previousSecretUntil: z.string().nullable(),
  /** Deliveries still to go (queued or being retried). */
  queued: z.number(),
  /** Deliveries given up. */
  failed: z.number(),
  lastDeliveredAt: z.string().nullable(),
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

export const WebhookList = z.object({ subscriptions: z.array(WebhookSubscription) });
export type WebhookList = z.infer<typeof WebhookList>;

/** POST /api/webhooks/create and /api/webhooks/update: where, and what it receives. */
export const WebhookFields = z.object({
  url: z.string().trim().min(1, "required field").max(2000, "at most 2,000 characters"),
  entityTypes: z.array(z.string().min(1)).max(200),
  kinds: z.array(WebhookKind).min(1, "choose at least one kind of event"),
});
export type WebhookFields = z.infer<typeof WebhookFields>;

export const CreateWebhookRequest = WebhookFields.extend({ context: z.string().min(1) });
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

export const UpdateWebhookRequest = WebhookFields.extend({ subscriptionId: z.number().int() });
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequest>;

export const WebhookRequest = z.object({ subscriptionId: z.number().int() });
export type WebhookRequest = z.infer<typeof WebhookRequest>;

/** A new or rotated subscription's secret (`whsec_...`): shown in this answer only. */
export const WebhookSecret = z.object({
  subscription: WebhookSubscription,
  secret: z.string(),
  Msg: z.string(),
});
export type WebhookSecret = z.infer<typeof WebhookSecret>;

export const DELIVERY_STATUSES = ["queued", "delivered", "failed"] as const;

/** One event's delivery to one subscription, as its log shows it. */
export const WebhookDelivery = z.object({
  deliveryId: z.number(),
  /** The `webhook-id` header: the same at every try. */
  webhookId: z.string(),
  kind: WebhookKind,
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number(),
  /** The receiver's answer code at the last try, when it answered. */
  answerCode: z.number().nullable(),
  /** Why the last try failed, or was refused. */
  reason: z.string().nullable(),
  createdAt: z.string(),
  lastAttemptAt: z.string().nullable(),
  nextAttemptAt: z.string().nullable(),
  deliveredAt: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

/** POST /api/webhooks/deliveries: a subscription's log, newest first, a page at a time. */
export const WebhookDeliveriesRequest = z.object({
  subscriptionId: z.number().int(),
  /** Deliveries older than this one (the last of the previous page). */
  before: z.number().int().optional(),
  limit: z.number().int().min(1).max(500).optional(),
});
export type WebhookDeliveriesRequest = z.infer<typeof WebhookDeliveriesRequest>;

export const WebhookDeliveries = z.object({ deliveries: z.array(WebhookDelivery) });
export type WebhookDeliveries = z.infer<typeof WebhookDeliveries>;

/** POST /api/webhooks/resend: one delivery, sent again at once with its own `webhook-id`. */
export const ResendWebhookRequest = z.object({ deliveryId: z.number().int() });
export type ResendWebhookRequest = z.infer<typeof ResendWebhookRequest>;
