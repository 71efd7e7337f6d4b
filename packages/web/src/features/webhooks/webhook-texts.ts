import {
  WEBHOOK_KIND_TEXT,
  type WebhookDelivery,
  type WebhookKind,
  type WebhookSubscription,
} from "@ledgerline/contract";
import dayjs from "dayjs";

/** The text under the heading, naming the application. */
export const webhooksExplanation = (application: string) =>
  `Webhooks tell other systems what happens in ${application}: each event is POSTed to the address, signed with the subscription's secret (Standard Webhooks). Failed deliveries are retried with backoff; a webhook that keeps failing is paused.`;

export const rotateQuestion = (url: string) =>
  `Make a new secret for ${url}? The current one keeps signing for a while, so receivers can switch.`;

export const removeQuestion = (url: string) =>
  `Remove the webhook to ${url}? Nothing more is delivered to it.`;

/** The types a subscription receives, by the names the user knows; 'All types' when none. */
export function typesText(
  entityTypes: readonly string[],
  known: readonly { name: string; uiName: string }[],
): string {
  if (entityTypes.length === 0) return "All types";
  return entityTypes.map((name) => known.find((t) => t.name === name)?.uiName ?? name).join(", ");
}

export const kindsText = (kinds: readonly WebhookKind[]) =>
  kinds.map((kind) => WEBHOOK_KIND_TEXT[kind]).join(", ");

export const subscriptionStatusText = (status: WebhookSubscription["status"]) =>
  status === "active" ? "Active" : "Paused";

const DELIVERY_STATUS_TEXT: Record<WebhookDelivery["status"], string> = {
  queued: "Waiting",
  delivered: "Delivered",
  failed: "Failed",
};

export const deliveryStatusText = (status: WebhookDelivery["status"]) =>
  DELIVERY_STATUS_TEXT[status];

/** A moment as the audit trail and pending changes write it (local time), or `none` for null. */
export function momentText(iso: string | null, none: string): string {
  if (iso === null) return none;
  const moment = dayjs(iso);
  return moment.isValid() ? moment.format("YYYY/MM/DD HH:mm:ss") : iso;
}

/** Deliveries asked for per page of the log. */
export const DELIVERY_PAGE = 50;

/** Where the next (older) page starts: after the last delivery of a full page; none after a short one. */
export function olderThan(
  page: readonly Pick<WebhookDelivery, "deliveryId">[],
): number | undefined {
  if (page.length < DELIVERY_PAGE) return undefined;
  return page[page.length - 1]?.deliveryId;
}
