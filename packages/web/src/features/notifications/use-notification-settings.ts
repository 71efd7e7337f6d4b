import type { NotificationSettings, UpdateNotificationSetting } from "@ledgerline/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiPost } from "../../api/index.ts";
import { useProfile } from "../../state/session-store.ts";
import { withSetting } from "./notification-settings.ts";

export const notificationSettingsKeys = {
  all: ["notification-settings"] as const,
  user: (username: string) => ["notification-settings", username] as const,
};

const updateKey = ["notification-settings", "update"] as const;

/** The signed-in user's own settings, every kind listed (POST /api/notifications/settings). */
export function useNotificationSettings() {
  const username = useProfile()?.username ?? "";
  return useQuery({
    queryKey: notificationSettingsKeys.user(username),
    queryFn: ({ signal }) =>
      apiPost<NotificationSettings>("/api/notifications/settings", {}, { signal }),
    // An administrator may have changed the e-mail address meanwhile.
    staleTime: 0,
  });
}

/**
 * Switches one kind on or off (POST /api/notifications/updatesetting). The switch moves at once;
 * a refusal puts it back and the settings are asked again once the last switch is saved.
 */
export function useUpdateNotificationSetting() {
  const queryClient = useQueryClient();
  const key = notificationSettingsKeys.user(useProfile()?.username ?? "");
  return useMutation({
    mutationKey: updateKey,
    mutationFn: (change: UpdateNotificationSetting) =>
      apiPost<NotificationSettings>("/api/notifications/updatesetting", change),
    onMutate: async (change) => {
      await queryClient.cancelQueries({ queryKey: key });
      const before = queryClient.getQueryData<NotificationSettings>(key);
      if (before) queryClient.setQueryData(key, withSetting(before, change));
      return { before };
    },
    onError: (_error, _change, saved) => {
      if (saved?.before) queryClient.setQueryData(key, saved.before);
    },
    onSettled: () => {
      // Quick switches of several kinds: only the last answer may replace what the page shows.
      if (queryClient.isMutating({ mutationKey: updateKey }) === 1) {
        void queryClient.invalidateQueries({ queryKey: key });
      }
    },
  });
}
