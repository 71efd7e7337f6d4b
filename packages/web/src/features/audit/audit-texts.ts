import type { AuditFilter, SecurityEventKind } from "@ledgerline/contract";
import dayjs from "dayjs";

/** How the page names each kind of event (the select's options, the Event column). */
export const EVENT_LABELS: Readonly<Record<SecurityEventKind, string>> = {
  "sign-in": "Signed in",
  "sign-in-failed": "Sign-in refused",
  "sign-out": "Signed out",
  "password-changed": "Password changed",
  "password-reset": "Password reset",
  "email-changed": "E-mail address changed",
  "user-created": "User created",
  "user-updated": "User changed",
  "user-removed": "User removed",
  "admin-granted": "Administrator right granted",
  "admin-revoked": "Administrator right taken",
  "role-granted": "Role granted",
  "role-revoked": "Role taken",
  "token-created": "API token created",
  "token-revoked": "API token revoked",
  "self-approval-changed": "Self-approval setting changed",
  "webhook-created": "Webhook created",
  "webhook-updated": "Webhook changed",
  "webhook-secret-rotated": "Webhook secret rotated",
  "webhook-paused": "Webhook paused",
  "webhook-resumed": "Webhook resumed",
  "webhook-removed": "Webhook removed",
  "backup-taken": "Backup taken",
};

/** The filters as the page holds them: texts of its inputs, dates as YYYY-MM-DD (both ends included). */
export interface AuditFilterInputs {
  kind: SecurityEventKind | "";
  user: string;
  fromDate: string;
  toDate: string;
}

export const NO_FILTERS: AuditFilterInputs = { kind: "", user: "", fromDate: "", toDate: "" };

/**
 * The request's filters: the days are the browser's own, from the start of the first to the start
 * of the day after the last (the server's `to` is exclusive).
 */
export function filterOf(inputs: AuditFilterInputs): AuditFilter {
  const user = inputs.user.trim();
  const from = dayStart(inputs.fromDate);
  const to = dayStart(inputs.toDate)?.add(1, "day");
  return {
    ...(inputs.kind ? { kinds: [inputs.kind] } : {}),
    ...(user ? { user } : {}),
    ...(from ? { from: from.toISOString() } : {}),
    ...(to ? { to: to.toISOString() } : {}),
  };
}

/** The start of a YYYY-MM-DD day in the browser's time; undefined for anything else (2026-02-31). */
function dayStart(date: string): dayjs.Dayjs | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const start = dayjs(`${date}T00:00:00`);
  return start.isValid() && start.format("YYYY-MM-DD") === date ? start : undefined;
}

/** When an event happened, in the browser's time. */
export function whenText(iso: string): string {
  const moment = dayjs(iso);
  return moment.isValid() ? moment.format("YYYY/MM/DD HH:mm:ss") : iso;
}

/** An event's detail as 'name: value' pairs; lists and objects written as JSON. */
export function detailText(detail: Record<string, unknown>): string {
  return Object.entries(detail)
    .map(([name, value]) => `${name}: ${typeof value === "string" ? value : JSON.stringify(value)}`)
    .join("; ");
}
