import dayjs from "dayjs";

/** The format SPEC.md uses as its example ('YYYY/MM/DD HH:mm:ss'). */
export const DEFAULT_DATE_FORMAT = "YYYY/MM/DD HH:mm:ss";

/**
 * Formats a date input value (YYYY-MM-DD) and a time input value (HH:mm or HH:mm:ss) with a
 * format string of dayjs tokens; undefined when the date is missing or not a real date.
 */
export function formatDateTime(date: string, time: string, format: string): string | undefined {
  if (date === "") return undefined;
  const value = dayjs(`${date}T${time === "" ? "00:00:00" : time}`);
  // dayjs rolls impossible dates over (2024-13-45 becomes 2025-02-14): refuse those.
  if (!value.isValid() || value.format("YYYY-MM-DD") !== date) return undefined;
  return value.format(format);
}

/** Today's date and the current time, as date and time inputs hold them. */
export function nowInputs(): { date: string; time: string } {
  const now = dayjs();
  return { date: now.format("YYYY-MM-DD"), time: now.format("HH:mm:ss") };
}
