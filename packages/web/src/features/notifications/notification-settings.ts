import {
  NOTIFICATION_KIND_TEXT,
  type NotificationKind,
  type NotificationSetting,
  type NotificationSettings,
} from "@ledgerline/contract";

/** One line of the Notifications page: a kind, its texts and whether the user receives it. */
export interface NotificationRow {
  kind: NotificationKind;
  uiName: string;
  uiDescription: string;
  enabled: boolean;
}

/**
 * Every kind the user may receive (`kinds`: notificationKindsFor) in the contract's order with its
 * texts; a kind the server did not list counts as switched on, as the server's own default is.
 */
export function notificationRows(
  settings: readonly NotificationSetting[],
  kinds: readonly NotificationKind[],
): NotificationRow[] {
  return kinds.map((kind) => ({
    kind,
    ...NOTIFICATION_KIND_TEXT[kind],
    enabled: settings.find((s) => s.kind === kind)?.enabled ?? true,
  }));
}

/** The settings with one kind switched, as the page shows them before the server answers. */
export function withSetting(
  current: NotificationSettings,
  change: NotificationSetting,
): NotificationSettings {
  const listed = current.settings.some((s) => s.kind === change.kind);
  return {
    ...current,
    settings: listed
      ? current.settings.map((s) => (s.kind === change.kind ? change : s))
      : [...current.settings, change],
  };
}
