import { z } from "zod";

/** What the security audit trail records; each kind names the change, the subject says of what. */
export const SECURITY_EVENT_KINDS = [
  "sign-in",
  "sign-in-failed",
  "sign-out",
  "password-changed",
  "password-reset",
  "email-changed",
  "user-created",
  "user-updated",
  "user-removed",
  "admin-granted",
  "admin-revoked",
  "role-granted",
  "role-revoked",
  "token-created",
  "token-revoked",
  "self-approval-changed",
  "webhook-created",
  "webhook-updated",
  "webhook-secret-rotated",
  "webhook-paused",
  "webhook-resumed",
  "webhook-removed",
  "backup-taken",
] as const;
export const SecurityEventKind = z.enum(SECURITY_EVENT_KINDS);
export type SecurityEventKind = z.infer<typeof SecurityEventKind>;

/** The filters of the audit trail's list and export; every given one must hold. */
export const AuditFilter = z.object({
  /** Only these kinds (all when absent or empty). */
  kinds: z.array(SecurityEventKind).max(SECURITY_EVENT_KINDS.length).optional(),
  /** Only events done by this user (the actor), case-insensitively; an exact username. */
  actor: z.string().trim().max(200).optional(),
  /** Only events concerning this user (the subject), case-insensitively. */
  subject: z.string().trim().max(200).optional(),
  /** Only events done by or concerning this user (actor or subject), case-insensitively. */
  user: z.string().trim().max(200).optional(),
  /** Only events at or after this moment (ISO 8601, with its offset). */
  from: z.iso.datetime({ offset: true }).optional(),
  /** Only events before this moment (ISO 8601, with its offset). */
  to: z.iso.datetime({ offset: true }).optional(),
});
export type AuditFilter = z.infer<typeof AuditFilter>;

/** POST /api/audit/list: one page of the filtered events, newest first. */
export const AuditListRequest = AuditFilter.extend({
  /** Counts from 1. */
  pageNum: z.number().int().min(1).max(10_000_000).optional(),
  pageSize: z.number().int().min(1).max(1000).optional(),
});
export type AuditListRequest = z.infer<typeof AuditListRequest>;

/** POST /api/audit/export: every filtered event, newest first, as an xlsx workbook. */
export const AuditExportRequest = AuditFilter;
export type AuditExportRequest = z.infer<typeof AuditExportRequest>;

export const SecurityEvent = z.object({
  eventId: z.number(),
  /** When it happened (ISO 8601, UTC). */
  occurredAt: z.string(),
  kind: SecurityEventKind,
  /** Who did it (a username); null for a failed sign-in's unknown caller or the system. */
  actor: z.string().nullable(),
  /**
   * The user concerned (whose role, token or password); a model's type for self-approval settings;
   * a webhook's address for its events.
   */
  subject: z.string().nullable(),
  /** Where from: the client's address as the server sees it, or 'cli' or 'scheduler'. */
  origin: z.string().nullable(),
  detail: z.record(z.string(), z.unknown()),
});
export type SecurityEvent = z.infer<typeof SecurityEvent>;

export const AuditListResponse = z.object({
  /** The number of events matching the filters (what paging walks). */
  total: z.number(),
  events: z.array(SecurityEvent),
});
export type AuditListResponse = z.infer<typeof AuditListResponse>;
