import type { SecurityEventKind } from "@ledgerline/contract";
import type { Db } from "../db/connection.ts";
import { insertSecurityEvent } from "./audit.repository.ts";

export type { SecurityEventKind } from "@ledgerline/contract";

/** Where a change came from when no client address exists: the command line or the server itself. */
export const CLI_ORIGIN = "cli";
export const SCHEDULER_ORIGIN = "scheduler";

export interface SecurityEventInput {
  kind: SecurityEventKind;
  /** Who did it (a username); null when nobody is known (a failed sign-in of no such user, the system). */
  actor: string | null;
  /** The user, role or token concerned. */
  subject?: string | null;
  /** The client's address as the server sees it (request.ip), or CLI_ORIGIN / SCHEDULER_ORIGIN. */
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
