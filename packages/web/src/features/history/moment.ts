import { Moment } from "@ledgerline/contract";
import dayjs from "dayjs";

/** A moment as the screens show it: YYYY/MM/DD HH:mm:ss in local time (the pending 'Change date'). */
export function momentText(moment: string): string {
  return dayjs(moment).format("YYYY/MM/DD HH:mm:ss");
}

/** A moment as a datetime-local input holds it: local time to the second. */
export function localInputOf(moment: string): string {
  return dayjs(moment).format("YYYY-MM-DDTHH:mm:ss");
}

/**
 * The moment a datetime-local value names (local time), as an ISO string with zone; null when
 * the input is empty or incomplete. Date parses a zoneless date-time as local time.
 */
export function momentOfLocalInput(value: string): string | null {
  if (value === "") return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The text when it is a moment the server accepts (ISO 8601 with zone), else null. */
export function momentOrNull(text: string | null): string | null {
  return text !== null && Moment.safeParse(text).success ? text : null;
}
