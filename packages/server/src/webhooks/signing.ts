import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";

/** A new subscription secret, as Standard Webhooks writes one: `whsec_` and 32 random bytes in base64. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

/**
 * The Standard Webhooks headers of one try: `webhook-id` (the same at every try),
 * `webhook-timestamp` (this try's, in seconds) and `webhook-signature`, one `v1,<HMAC-SHA256>` per
 * secret (the current one and, during a rotation's overlap, the previous one): a receiver that
 * knows either accepts it.
 */
export function signedHeaders(
  webhookId: string,
  body: string,
  secrets: readonly string[],
  at: Date = new Date(),
): Record<string, string> {
  return {
    "webhook-id": webhookId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": secrets
      .map((secret) => new Webhook(secret).sign(webhookId, at, body))
      .join(" "),
  };
}

/** The `webhook-id` of an event: the same for every try and every receiver. */
export const webhookIdOf = (eventId: number) => `msg_${eventId}`;
