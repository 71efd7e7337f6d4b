import type { OutboxStatus, UsersNotificationSettings } from "@ledgerline/contract";
import { useQuery } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { usersKeys } from "./use-users.ts";

/** Under usersKeys.all: adding, editing or removing a user refreshes the overview too. */
export const notificationAdminKeys = {
  settings: () => [...usersKeys.all, "notification-settings"] as const,
  outbox: () => ["notification-outbox"] as const,
};

/** Every active user's notification settings (POST /api/notifications/users, administrators). */
export function useUsersNotificationSettings() {
  return useQuery({
    queryKey: notificationAdminKeys.settings(),
    queryFn: ({ signal }) =>
      apiPost<UsersNotificationSettings>("/api/notifications/users", {}, { signal }),
    // Users switch their own settings on another screen.
    staleTime: 0,
  });
}

/** What waits to be sent and what failed (POST /api/notifications/outbox, administrators). */
export function useOutboxStatus() {
  return useQuery({
    queryKey: notificationAdminKeys.outbox(),
    queryFn: ({ signal }) => apiPost<OutboxStatus>("/api/notifications/outbox", {}, { signal }),
    staleTime: 0,
  });
}
