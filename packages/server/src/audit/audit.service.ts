import type { Readable } from "node:stream";
import type {
  AuditFilter,
  AuditListRequest,
  AuditListResponse,
  SecurityEvent,
  SecurityEventKind,
} from "@ledgerline/contract";
import type { Db } from "../db/connection.ts";
import { writeXlsx, type XlsxColumn } from "../exports/xlsx-writer.ts";
import {
  insertSecurityEvent,
  listSecurityEvents,
  type SecurityEventRow,
  securityEventsBefore,
} from "./audit.repository.ts";

export type { SecurityEventKind } from "@ledgerline/contract";

/**
 * Where a change came from when no client address exists: the command line, or the server itself
 * (what it records at start, such as a model's changed self-approval settings).
 */
export const CLI_ORIGIN = "cli";
export const SERVER_ORIGIN = "server";

export interface SecurityEventInput {
  kind: SecurityEventKind;
  /** Who did it (a username); null when nobody is known (a failed sign-in of no such user, the system). */
  actor: string | null;
  /** The user, role or token concerned. */
  subject?: string | null;
  /** The client's address as the server sees it (request.ip), or CLI_ORIGIN / SERVER_ORIGIN. */
  ip?: string | null;
  detail?: Record<string, unknown>;
}

/**
 * Adds an event to the security audit trail, stamped now(). Pass the transaction of the change
 * it records where there is one, so that the change and its record stand or fall together.
 */
export async function recordSecurityEvent(db: Db, event: SecurityEventInput): Promise<void> {
  await insertSecurityEvent(db, {
    kind: event.kind,
    actor: event.actor,
    subject: event.subject ?? null,
    origin: event.ip ?? null,
    detail: event.detail ?? {},
  });
}

/** A person signed in (by password or company sign-in): they are both actor and subject. */
export function recordSignIn(
  db: Db,
  username: string,
  ip: string,
  method: "password" | "oidc",
): Promise<void> {
  return recordSecurityEvent(db, {
    kind: "sign-in",
    actor: username,
    subject: username,
    ip,
    detail: { method },
  });
}

/** Who changed whose rights, from where: what every rights event shares. */
export interface RightsChange {
  /** Null when the server did it by itself (the first super administrator). */
  actor: string | null;
  /** The user whose rights changed. */
  subject: string;
  ip: string;
}

/** Records roles given to and taken from one user, one event each (`via` says how, e.g. the group mapping). */
export async function recordRoleChanges(
  db: Db,
  change: RightsChange,
  roles: {
    granted: readonly { context: string; role: string }[];
    revoked: readonly { context: string; role: string }[];
  },
  via?: string,
): Promise<void> {
  const events = [
    ...roles.granted.map((r) => ({ kind: "role-granted" as const, ...r })),
    ...roles.revoked.map((r) => ({ kind: "role-revoked" as const, ...r })),
  ];
  for (const { kind, context, role } of events)
    await recordSecurityEvent(db, {
      ...change,
      kind,
      detail: { context, role, ...(via ? { via } : {}) },
    });
}

export type ProfileFlag = "isadmin" | "issuperadmin" | "isdev";

/**
 * Records a profile flag given or taken: both administrator rights as admin-granted/-revoked (the
 * flag named in the detail), the developer flag as a user-updated.
 */
export async function recordFlagChange(
  db: Db,
  change: RightsChange,
  flag: ProfileFlag,
  held: boolean,
  via?: string,
): Promise<void> {
  const kind = flag === "isdev" ? "user-updated" : held ? "admin-granted" : "admin-revoked";
  await recordSecurityEvent(db, {
    ...change,
    kind,
    detail: { [flag]: held, ...(via ? { via } : {}) },
  });
}

const DEFAULT_PAGE_SIZE = 50;

function eventOf(row: SecurityEventRow): SecurityEvent {
  return {
    eventId: row.event_id,
    occurredAt: row.occurred_at.toISOString(),
    kind: row.kind,
    actor: row.actor,
    subject: row.subject,
    origin: row.origin,
    detail: row.detail,
  };
}

/** One page of the audit trail, newest first, with the number of events matching the filters. */
export async function listAudit(db: Db, request: AuditListRequest): Promise<AuditListResponse> {
  const { pageNum = 1, pageSize = DEFAULT_PAGE_SIZE, ...filter } = request;
  const { total, rows } = await listSecurityEvents(db, filter, {
    offset: (pageNum - 1) * pageSize,
    limit: pageSize,
  });
  return { total, events: rows.map(eventOf) };
}

const EXPORT_COLUMNS: readonly XlsxColumn[] = [
  { header: "When", type: "String" },
  { header: "Event", type: "String" },
  { header: "Who", type: "String" },
  { header: "Subject", type: "String" },
  { header: "From", type: "String" },
  { header: "Details", type: "String" },
];
const EXPORT_CHUNK = 1_000;

/** Every event matching the filters, newest first, as an xlsx stream (the columns of the page). */
export function exportAudit(db: Db, filter: AuditFilter): Readable {
  async function* rows(): AsyncGenerator<(string | null)[]> {
    let before: number | undefined;
    for (;;) {
      const chunk = await securityEventsBefore(db, filter, before, EXPORT_CHUNK);
      for (const row of chunk)
        yield [
          row.occurred_at.toISOString(),
          row.kind,
          row.actor,
          row.subject,
          row.origin,
          Object.keys(row.detail).length > 0 ? JSON.stringify(row.detail) : null,
        ];
      const last = chunk.at(-1);
      if (!last || chunk.length < EXPORT_CHUNK) return;
      before = last.event_id;
    }
  }
  return writeXlsx(EXPORT_COLUMNS, rows(), "Audit trail");
}
