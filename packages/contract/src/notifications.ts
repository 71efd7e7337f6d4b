import { z } from "zod";

/** The kinds of message a user may receive; each can be switched off on the Notifications page. */
export const NOTIFICATION_KINDS = [
  "changes_waiting",
  "web_digest",
  "decision",
  "import_failed",
  "webhook_paused",
] as const;
export const NotificationKind = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof NotificationKind>;

/** Kinds only administrators receive (and see on the Notifications page). */
const FOR_ADMINISTRATORS: readonly NotificationKind[] = ["webhook_paused"];

/** The kinds a user may receive: every kind for administrators, the others for everyone else. */
export const notificationKindsFor = (isadmin: boolean): NotificationKind[] =>
  NOTIFICATION_KINDS.filter((kind) => isadmin || !FOR_ADMINISTRATORS.includes(kind));

/** What each kind is called and says, on the Notifications page and the user screen. */
export const NOTIFICATION_KIND_TEXT: Readonly<
  Record<NotificationKind, { uiName: string; uiDescription: string }>
> = {
  changes_waiting: {
    uiName: "Change sets waiting for me",
    uiDescription:
      "An upload or a metadata import has changes that I may approve (one message per change set).",
  },
  web_digest: {
    uiName: "Web changes waiting for me",
    uiDescription:
      "Records created, edited or deleted in the web wait for my approval (at most one digest per type in each interval).",
  },
  decision: {
    uiName: "Decisions on my changes",
    uiDescription: "My changes were approved, rejected or ran into a conflict.",
  },
  import_failed: {
    uiName: "Failed scheduled imports",
    uiDescription: "A scheduled import of a metadata source I own failed.",
  },
  webhook_paused: {
    uiName: "Paused webhooks",
    uiDescription:
      "A webhook subscription kept failing and was paused (administrators: they may resume it).",
  },
};

/** One kind and whether the user receives it. */
export const NotificationSetting = z.object({ kind: NotificationKind, enabled: z.boolean() });
export type NotificationSetting = z.infer<typeof NotificationSetting>;

/** POST /api/notifications/settings: the caller's settings, every kind listed. */
export const NotificationSettings = z.object({
  email: z.string(),
  /** false when the server has no SMTP server: nothing is e-mailed, the in-app counts still work. */
  emailEnabled: z.boolean(),
  settings: z.array(NotificationSetting),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/** POST /api/notifications/updatesetting: switches one kind on or off for the caller. */
export const UpdateNotificationSetting = NotificationSetting;
export type UpdateNotificationSetting = z.infer<typeof UpdateNotificationSetting>;

/** POST /api/notifications/users (administrators): every active user's settings. */
export const UsersNotificationSettings = z.array(
  z.object({
    username: z.string(),
    name: z.string(),
    email: z.string(),
    settings: z.array(NotificationSetting),
  }),
);
export type UsersNotificationSettings = z.infer<typeof UsersNotificationSettings>;

/** A message the sender gave up on, with the last error the SMTP server or the network gave. */
export const FailedMessage = z.object({
  messageId: z.number(),
  kind: NotificationKind,
  recipient: z.string(),
  subject: z.string(),
  attempts: z.number(),
  lastError: z.string(),
  createdAt: z.string(),
});
export type FailedMessage = z.infer<typeof FailedMessage>;

/** POST /api/notifications/outbox (administrators): what waits to be sent and what failed. */
export const OutboxStatus = z.object({
  queued: z.number(),
  sent: z.number(),
  failed: z.array(FailedMessage),
});
export type OutboxStatus = z.infer<typeof OutboxStatus>;

/**
 * POST /api/waiting: per application the caller can use, how many pending changes wait for the
 * caller's decision and how many of the caller's own changes wait for someone else's.
 */
export const WaitingCounts = z.array(
  z.object({
    context: z.string(),
    uiName: z.string(),
    waitingForMe: z.number(),
    mineWaiting: z.number(),
  }),
);
export type WaitingCounts = z.infer<typeof WaitingCounts>;
