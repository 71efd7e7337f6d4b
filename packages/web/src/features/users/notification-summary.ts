import {
  NOTIFICATION_KIND_TEXT,
  NOTIFICATION_KINDS,
  type NotificationSetting,
} from "@ledgerline/contract";
import dayjs from "dayjs";

/**
 * 'all on', or the names of the kinds the user switched off, in the contract's order, among the
 * kinds the server listed for the user.
 */
export function switchedOffText(settings: readonly NotificationSetting[]): string {
  const off = NOTIFICATION_KINDS.filter(
    (kind) => settings.find((s) => s.kind === kind)?.enabled === false,
  );
  if (off.length === 0) return "all on";
  if (off.length === settings.length) return "all off";
  return `off: ${off.map((kind) => NOTIFICATION_KIND_TEXT[kind].uiName).join(", ")}`;
}

/** A message's date as the other screens write dates: YYYY/MM/DD HH:mm:ss, local time. */
export function messageDateText(iso: string): string {
  const date = dayjs(iso);
  return date.isValid() ? date.format("YYYY/MM/DD HH:mm:ss") : iso;
}
