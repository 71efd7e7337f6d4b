import {
  type NotificationSetting,
  type NotificationSettings,
  notificationKindsFor,
  type OutboxStatus,
  type UpdateNotificationSetting,
  type UsersNotificationSettings,
  type WaitingCounts,
} from "@ledgerline/contract";
import { rightsIn } from "../admin/permissions.ts";
import { listActiveUsers } from "../admin/users.repository.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { contextsForUser } from "../contexts/contexts.service.ts";
import type { Db } from "../db/connection.ts";
import type { Model } from "../model/model.ts";
import type { Notifier } from "./notify.service.ts";
import { outboxStatus } from "./outbox.repository.ts";
import { pendingByAuthor, saveSetting, settingsOf } from "./settings.repository.ts";

function withDefaults(
  rows: readonly { kind: NotificationSetting["kind"]; enabled: boolean }[],
  kinds: readonly NotificationSetting["kind"][],
): NotificationSetting[] {
  return kinds.map((kind) => ({
    kind,
    enabled: rows.find((r) => r.kind === kind)?.enabled ?? true,
  }));
}

/** The caller's notification settings, every kind the caller may receive (on unless switched off). */
export async function mySettings(
  db: Db,
  notifier: Notifier,
  user: CurrentUser,
): Promise<NotificationSettings> {
  return {
    email: user.email,
    emailEnabled: notifier.enabled,
    settings: withDefaults(await settingsOf(db, [user.userId]), notificationKindsFor(user.isadmin)),
  };
}

/** Switches one kind on or off for the caller. */
export async function updateMySetting(
  db: Db,
  notifier: Notifier,
  user: CurrentUser,
  request: UpdateNotificationSetting,
): Promise<NotificationSettings> {
  await saveSetting(db, user.userId, request.kind, request.enabled);
  return mySettings(db, notifier, user);
}

/** Every active user's settings, for administrators. */
export async function everyonesSettings(db: Db): Promise<UsersNotificationSettings> {
  const users = await listActiveUsers(db);
  const rows = await settingsOf(
    db,
    users.map((u) => u.user_id),
  );
  return users.map((u) => ({
    username: u.username,
    name: u.name,
    email: u.email,
    settings: withDefaults(
      rows.filter((r) => r.user_id === u.user_id),
      notificationKindsFor(u.isadmin),
    ),
  }));
}

/** The outbox in numbers and the messages given up, for administrators. */
export async function outbox(db: Db): Promise<OutboxStatus> {
  const status = await outboxStatus(db);
  return {
    queued: status.queued,
    sent: status.sent,
    failed: status.failed.map((m) => ({
      messageId: m.message_id,
      kind: m.kind,
      recipient: m.recipient,
      subject: m.subject,
      attempts: m.attempts,
      lastError: m.last_error ?? "",
      createdAt: m.created_at.toISOString(),
    })),
  };
}

/**
 * Per application the caller can use: pending changes waiting for the caller's decision (types
 * the caller may approve, made by others, or by the caller where a type allows self-approval)
 * and the caller's own changes waiting for someone else.
 */
export async function waitingCounts(
  db: Db,
  model: Model,
  user: CurrentUser,
): Promise<WaitingCounts> {
  const contexts = await contextsForUser(db, model, user);
  const pending = await pendingByAuthor(
    db,
    user.username,
    contexts.map((c) => c.name),
  );
  const answer: WaitingCounts = [];
  for (const context of contexts) {
    const rights = rightsIn(model, user, context.name);
    let waitingForMe = 0;
    let mineWaiting = 0;
    for (const row of pending.filter((p) => p.context === context.name)) {
      const type = rights.context.entityTypes.find((t) => t.name === row.entity_type);
      if (!type || !rights.flagsOf(type.name).canread) continue;
      if (row.mine) mineWaiting += row.n;
      if (rights.flagsOf(type.name).canapprove && (!row.mine || type.selfApproval))
        waitingForMe += row.n;
    }
    answer.push({ context: context.name, uiName: context.uiName, waitingForMe, mineWaiting });
  }
  return answer;
}
