import {
  ContextRequest,
  CreateWebhookRequest,
  ErrorBody,
  MsgBody,
  ResendWebhookRequest,
  UpdateWebhookRequest,
  WebhookDeliveries,
  WebhookDeliveriesRequest,
  WebhookList,
  WebhookRequest,
  WebhookSecret,
  WebhookSubscription,
} from "@ledgerline/contract";
import type { FastifyRequest } from "fastify";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import {
  createWebhook,
  listWebhooks,
  removeWebhook,
  resendDelivery,
  rotateWebhookSecret,
  setWebhookStatus,
  updateWebhook,
  webhookDeliveries,
} from "./webhooks.service.ts";

const errors = { 400: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** Webhook subscriptions of an application and their delivery logs (administrators). */
export async function webhooksRoutes(
  app: App,
  { config, database, model }: AppDeps,
): Promise<void> {
  const db = database.db;
  const settings = config.webhooks;
  const by = (request: FastifyRequest) => ({ user: currentUser(request), ip: request.ip });
  const route = <Body, Answer>(url: string, description: string, body: Body, answer: Answer) => ({
    url,
    schema: { description, tags: ["webhooks"], body, response: { 200: answer, ...errors } },
  });

  const list = route(
    "/api/webhooks/list",
    "The application's webhook subscriptions (never their secrets).",
    ContextRequest,
    WebhookList,
  );
  app.post(list.url, { schema: list.schema }, async (request) =>
    listWebhooks(db, model, request.body.context),
  );

  const create = route(
    "/api/webhooks/create",
    "Registers a webhook: its address, types (none: all) and kinds of event; the secret is in this answer only.",
    CreateWebhookRequest,
    WebhookSecret,
  );
  app.post(create.url, { schema: create.schema }, async (request) =>
    createWebhook(db, model, settings, by(request), request.body),
  );

  const update = route(
    "/api/webhooks/update",
    "Changes a webhook's address, types and kinds.",
    UpdateWebhookRequest,
    WebhookSubscription,
  );
  app.post(update.url, { schema: update.schema }, async (request) =>
    updateWebhook(db, model, settings, by(request), request.body),
  );

  const rotate = route(
    "/api/webhooks/rotate",
    "Makes a webhook's new secret (in this answer only); the previous one keeps signing beside it for WEBHOOK_SECRET_OVERLAP_HOURS.",
    WebhookRequest,
    WebhookSecret,
  );
  app.post(rotate.url, { schema: rotate.schema }, async (request) =>
    rotateWebhookSecret(db, settings, by(request), request.body.subscriptionId),
  );

  const pause = route(
    "/api/webhooks/pause",
    "Pauses a webhook: its deliveries wait.",
    WebhookRequest,
    MsgBody,
  );
  app.post(pause.url, { schema: pause.schema }, async (request) =>
    setWebhookStatus(db, by(request), request.body.subscriptionId, "paused"),
  );

  const resume = route(
    "/api/webhooks/resume",
    "Resumes a paused webhook: its waiting deliveries go at once.",
    WebhookRequest,
    MsgBody,
  );
  app.post(resume.url, { schema: resume.schema }, async (request) =>
    setWebhookStatus(db, by(request), request.body.subscriptionId, "active"),
  );

  const remove = route(
    "/api/webhooks/remove",
    "Removes a webhook: nothing more is delivered to it.",
    WebhookRequest,
    MsgBody,
  );
  app.post(remove.url, { schema: remove.schema }, async (request) =>
    removeWebhook(db, by(request), request.body.subscriptionId),
  );

  const deliveries = route(
    "/api/webhooks/deliveries",
    "A webhook's delivery log, newest first: status, answer code, reason, tries, next try.",
    WebhookDeliveriesRequest,
    WebhookDeliveries,
  );
  app.post(deliveries.url, { schema: deliveries.schema }, async (request) =>
    webhookDeliveries(db, request.body),
  );

  const resend = route(
    "/api/webhooks/resend",
    "Sends one delivery again, with the same webhook-id.",
    ResendWebhookRequest,
    MsgBody,
  );
  app.post(resend.url, { schema: resend.schema }, async (request) =>
    resendDelivery(db, request.body.deliveryId),
  );
}
