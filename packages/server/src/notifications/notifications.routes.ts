import {
  EmptyRequest,
  ErrorBody,
  NotificationSettings,
  OutboxStatus,
  UpdateNotificationSetting,
  UsersNotificationSettings,
  WaitingCounts,
} from "@ledgerline/contract";
import { currentUser } from "../http/guard.ts";
import type { App, AppDeps } from "../http/types.ts";
import {
  everyonesSettings,
  mySettings,
  outbox,
  updateMySetting,
  waitingCounts,
} from "./notifications.service.ts";
import { notifierOf } from "./notify.service.ts";

const errors = { 400: ErrorBody, 403: ErrorBody };

/** Notification settings, the outbox for administrators, and the counts of waiting changes. */
export async function notificationsRoutes(
  app: App,
  { config, database, model }: AppDeps,
): Promise<void> {
  const db = database.db;
  const notifier = notifierOf(config);

  app.post(
    "/api/notifications/settings",
    {
      schema: {
        description: "The caller's notification settings: every kind, on unless switched off.",
        tags: ["notifications"],
        body: EmptyRequest,
        response: { 200: NotificationSettings, ...errors },
      },
    },
    async (request) => mySettings(db, notifier, currentUser(request)),
  );

  app.post(
    "/api/notifications/updatesetting",
    {
      schema: {
        description: "Switches one kind of notification on or off for the caller.",
        tags: ["notifications"],
        body: UpdateNotificationSetting,
        response: { 200: NotificationSettings, ...errors },
      },
    },
    async (request) => updateMySetting(db, notifier, currentUser(request), request.body),
  );

  app.post(
    "/api/notifications/users",
    {
      schema: {
        description: "Every active user's notification settings (administrators).",
        tags: ["notifications"],
        body: EmptyRequest,
        response: { 200: UsersNotificationSettings, ...errors },
      },
    },
    async () => everyonesSettings(db),
  );

  app.post(
    "/api/notifications/outbox",
    {
      schema: {
        description: "How many e-mails wait and were sent, and the ones given up (administrators).",
        tags: ["notifications"],
        body: EmptyRequest,
        response: { 200: OutboxStatus, ...errors },
      },
    },
    async () => outbox(db),
  );

  app.post(
    "/api/waiting",
    {
      schema: {
        description:
          "Per application of the caller: pending changes waiting for the caller's decision, and the caller's own waiting for someone else's.",
        tags: ["notifications"],
        body: EmptyRequest,
        response: { 200: WaitingCounts, ...errors },
      },
    },
    async (request) => waitingCounts(db, model, currentUser(request)),
  );
}
