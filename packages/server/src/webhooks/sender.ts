import { randomUUID } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import { recordSecurityEvent, SERVER_ORIGIN } from "../audit/audit.service.ts";
import type { WebhooksConfig } from "../config.ts";
import type { Db } from "../db/connection.ts";
import { placeRelay, releaseRelay } from "../feed/relays.repository.ts";
import type { Model } from "../model/model.ts";
import { findContext } from "../model/model.ts";
import { webhookPausedMessage } from "../notifications/messages.ts";
import type { Notifier } from "../notifications/notify.service.ts";
import { enqueueToAdministrators } from "../notifications/outbox.repository.ts";
import { retryDelaySeconds } from "../notifications/sender.ts";
import { type RepeatingWork, repeatEvery } from "../repeating-work.ts";
import { relayApprovedChanges } from "./changes-relay.ts";
import {
  claimDueDeliveries,
  type DueDelivery,
  markDelivered,
  markFailedTry,
} from "./deliveries.repository.ts";
import { type PostOutcome, postWebhook } from "./outgoing-post.ts";
import { signedHeaders, webhookIdOf } from "./signing.ts";
import { setStatus, subscriptionById } from "./subscriptions.repository.ts";

/** Deliveries claimed per round, and sent side by side. */
const BATCH = 100;
/** Receivers a sender waits on at once. */
const PARALLEL = 25;

export interface WebhookSenderOptions {
  db: Db;
  model: Model;
  webhooks: WebhooksConfig;
  notifier: Notifier;
  /** The server's address as receivers reach it: links into the change feed start with it. */
  publicUrl: string;
  log: FastifyBaseLogger;
}

/**
 * Pauses a subscription whose delivery was given up, and tells the administrators by e-mail, in
 * one transaction; its deliveries wait for it to be resumed.
 */
async function pauseFailing(
  options: WebhookSenderOptions,
  delivery: DueDelivery,
  reason: string,
): Promise<void> {
  const { db, notifier, model } = options;
  await db.transaction().execute(async (tx) => {
    const paused = `Paused after delivery ${delivery.delivery_id} was given up: ${reason}`;
    if (!(await setStatus(tx, delivery.subscription_id, "paused", paused))) return;
    const subscription = await subscriptionById(tx, delivery.subscription_id);
    if (!subscription) return;
    await recordSecurityEvent(tx, {
      kind: "webhook-paused",
      actor: null,
      subject: subscription.url,
      ip: SERVER_ORIGIN,
      detail: {
        subscriptionId: subscription.subscription_id,
        context: subscription.context,
        reason,
      },
    });
    if (!notifier.enabled) return;
    const context = findContext(model, subscription.context);
    await enqueueToAdministrators(
      tx,
      "webhook_paused",
      webhookPausedMessage({
        application: context?.uiName ?? subscription.context,
        url: subscription.url,
        reason,
        link: `${notifier.publicUrl}/webhooks?${new URLSearchParams({ context: subscription.context })}`,
      }),
    );
  });
  options.log.warn(
    { subscriptionId: delivery.subscription_id, deliveryId: delivery.delivery_id, reason },
    "webhook subscription paused: a delivery was given up",
  );
}

async function recordFailure(
  options: WebhookSenderOptions,
  delivery: DueDelivery,
  outcome: Extract<PostOutcome, { delivered: false }>,
): Promise<void> {
  const { maxAttempts } = options.webhooks;
  const retry =
    outcome.retry && delivery.attempts < maxAttempts ? retryDelaySeconds(delivery.attempts) : null;
  await markFailedTry(options.db, delivery.delivery_id, outcome, retry);
  if (retry === null) await pauseFailing(options, delivery, outcome.reason);
}

/** Sends one delivery; answers its answer code when the receiver took it. */
async function deliver(
  options: WebhookSenderOptions,
  delivery: DueDelivery,
): Promise<{ deliveryId: number; answerCode: number } | undefined> {
  const { timeoutMs, allowPrivate } = options.webhooks;
  const headers = signedHeaders(webhookIdOf(delivery.event_id), delivery.body, delivery.secrets);
  // postWebhook answers every fault as an outcome; a throw here would fail the whole batch.
  const outcome = await postWebhook(delivery.url, delivery.body, headers, {
    timeoutMs,
    allowPrivate,
  }).catch(
    (error): PostOutcome => ({
      delivered: false,
      answerCode: null,
      reason: `Could not send: ${(error as Error).message}`,
      retry: true,
    }),
  );
  if (outcome.delivered)
    return { deliveryId: delivery.delivery_id, answerCode: outcome.answerCode };
  await recordFailure(options, delivery, outcome);
  return undefined;
}

/** Runs `work` on every item, at most `parallel` at once, keeping the answers' order. */
async function inParallel<T, R>(
  items: readonly T[],
  parallel: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const answers: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const at = next++;
      answers[at] = await work(items[at]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, items.length) }, worker));
  return answers;
}

/**
 * One round of the webhook sender: delivers the due deliveries of active subscriptions in batches
 * until none is left. Answers how many were delivered.
 */
export async function sendDueWebhooks(options: WebhookSenderOptions): Promise<number> {
  // A claim outlasts the slowest batch: every receiver of it timing out (one timeout covers a
  // delivery's redirects too), PARALLEL at a time.
  const leaseSeconds = Math.ceil(((BATCH / PARALLEL) * options.webhooks.timeoutMs) / 1000) + 15;
  let delivered = 0;
  for (;;) {
    const batch = await claimDueDeliveries(options.db, BATCH, leaseSeconds);
    const results = await inParallel(batch, PARALLEL, (delivery) => deliver(options, delivery));
    const taken = results.filter((r) => r !== undefined);
    await markDelivered(options.db, taken);
    delivered += taken.length;
    if (batch.length < BATCH) return delivered;
  }
}

/**
 * One round of the webhooks: the approving commits since the last round become `changes.approved`
 * events (relayApprovedChanges), then every due delivery goes out. Answers how many went.
 */
export async function webhooksRound(
  options: WebhookSenderOptions,
  instance: string,
): Promise<number> {
  const { db, model, publicUrl } = options;
  await placeRelay(db, "webhooks");
  while (await relayApprovedChanges(db, model, publicUrl, instance));
  return sendDueWebhooks(options);
}

/**
 * Runs the webhooks in the background, every `pollMs`. Several instances may run it: one relays
 * the feed at a time (a lease), and each delivery is claimed by one of them (skip locked).
 */
export function startWebhookSender(options: WebhookSenderOptions): RepeatingWork {
  const instance = randomUUID();
  const work = repeatEvery(
    () => webhooksRound(options, instance),
    options.webhooks.pollMs,
    (error) => options.log.error({ err: error }, "webhook sender round failed"),
  );
  return {
    stop: async () => {
      await work.stop();
      await releaseRelay(options.db, "webhooks", instance);
    },
  };
}
