import type { SecurityEventKind } from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

export interface NewSecurityEvent {
  kind: SecurityEventKind;
  actor: string | null;
  subject: string | null;
  origin: string | null;
  detail: Record<string, unknown>;
}

export async function insertSecurityEvent(db: Db, event: NewSecurityEvent): Promise<void> {
  await sql`insert into app.security_events (kind, actor, subject, origin, detail)
    values (${event.kind}, ${event.actor}, ${event.subject}, ${event.origin},
            ${JSON.stringify(event.detail)}::jsonb)`.execute(db);
}
