import type { AuditFilter, SecurityEventKind } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";

export interface NewSecurityEvent {
  kind: SecurityEventKind;
  actor: string | null;
  subject: string | null;
  origin: string | null;
  detail: Record<string, unknown>;
}

export interface SecurityEventRow {
  event_id: number;
  occurred_at: Date;
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

/** The filter as a condition on `e`; every given part must hold. */
function whereOf(filter: AuditFilter): RawBuilder<boolean> {
  const parts: RawBuilder<unknown>[] = [sql`true`];
  if (filter.kinds?.length) parts.push(sql`e.kind = any(${filter.kinds}::text[])`);
  if (filter.actor) parts.push(sql`lower(e.actor) = lower(${filter.actor})`);
  if (filter.subject) parts.push(sql`lower(e.subject) = lower(${filter.subject})`);
  if (filter.user)
    parts.push(
      sql`(lower(e.actor) = lower(${filter.user}) or lower(e.subject) = lower(${filter.user}))`,
    );
  if (filter.from) parts.push(sql`e.occurred_at >= ${filter.from}::timestamptz`);
  if (filter.to) parts.push(sql`e.occurred_at < ${filter.to}::timestamptz`);
  return sql<boolean>`${sql.join(parts, sql` and `)}`;
}

const COLUMNS = sql`e.event_id, e.occurred_at, e.kind, e.actor, e.subject, e.origin, e.detail`;
// In the order they were recorded: now() is the time a transaction began, so a long one may
// stamp its event a moment earlier than one recorded before it.
const NEWEST_FIRST = sql`order by e.event_id desc`;

/** One page of the filtered events, newest first, and how many match. */
export async function listSecurityEvents(
  db: Db,
  filter: AuditFilter,
  page: { offset: number; limit: number },
): Promise<{ total: number; rows: SecurityEventRow[] }> {
  const where = whereOf(filter);
  const [counted, listed] = await Promise.all([
    sql<{ total: number }>`select count(*)::int as total from app.security_events e
      where ${where}`.execute(db),
    sql<SecurityEventRow>`select ${COLUMNS} from app.security_events e where ${where}
      ${NEWEST_FIRST} limit ${page.limit} offset ${page.offset}`.execute(db),
  ]);
  return { total: counted.rows[0]?.total ?? 0, rows: listed.rows };
}

/**
 * The filtered events recorded before event `beforeId` (newest first), at most `limit`: the export
 * reads them in chunks by keyset, each costing the same however deep.
 */
export async function securityEventsBefore(
  db: Db,
  filter: AuditFilter,
  beforeId: number | undefined,
  limit: number,
): Promise<SecurityEventRow[]> {
  const after = beforeId === undefined ? sql`` : sql`and e.event_id < ${beforeId}`;
  const { rows } = await sql<SecurityEventRow>`select ${COLUMNS} from app.security_events e
    where ${whereOf(filter)} ${after} ${NEWEST_FIRST} limit ${limit}`.execute(db);
  return rows;
}

/** Removes the events older than `days` days (retention); answers how many. */
export async function deleteSecurityEventsOlderThan(db: Db, days: number): Promise<number> {
  const result = await sql`delete from app.security_events
    where occurred_at < now() - make_interval(days => ${days})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Serialises the start-time check of self-approval settings between instances starting at once. */
export async function lockSelfApprovalCheck(tx: Db): Promise<void> {
  await sql`select pg_advisory_xact_lock(4211014)`.execute(tx);
}

/** The self-approval setting last recorded per subject (context/type). */
export async function lastSelfApprovalSettings(db: Db): Promise<Map<string, boolean>> {
  const { rows } = await sql<{ subject: string; allowed: boolean }>`
    select distinct on (e.subject) e.subject, (e.detail ->> 'selfApproval')::boolean as allowed
    from app.security_events e where e.kind = 'self-approval-changed'
    order by e.subject, e.occurred_at desc, e.event_id desc`.execute(db);
  return new Map(rows.map((r) => [r.subject, r.allowed]));
}
