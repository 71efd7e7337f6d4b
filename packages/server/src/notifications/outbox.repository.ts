import type { NotificationKind } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { MessageContent } from "./messages.ts";

/** Users a message may go to: active, with an e-mail address, and not having switched the kind off. */
const reachable = (kind: NotificationKind) => sql`
  not u.is_deleted and u.email <> ''
  and coalesce((select s.enabled from app.notification_settings s
                where s.user_id = u.user_id and s.kind = ${kind}), true)`;

/** Users holding one of `roles` in the context. */
const holdsRole = (context: string, roles: readonly string[]) => sql`
  exists (select 1 from app.user_roles r where r.user_id = u.user_id
          and r.context = ${context} and r.role = any(${[...roles]}::text[]))`;

/** Queues one message to every user `u` (app.users) matching `which` who may receive it. */
async function enqueueTo(
  db: Db,
  kind: NotificationKind,
  which: RawBuilder<unknown>,
  message: MessageContent,
): Promise<number> {
  const result = await sql`
    insert into app.outbox (kind, user_id, recipient, subject, text_body, html_body)
    select ${kind}, u.user_id, u.email, ${message.subject}, ${message.text}, ${message.html}
    from app.users u where ${which} and ${reachable(kind)}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Queues one message to every user holding one of `roles` in the context, except `exclude`
 * (the proposer), in one statement.
 */
export async function enqueueToRoleHolders(
  db: Db,
  kind: NotificationKind,
  target: { context: string; roles: readonly string[]; exclude: string },
  message: MessageContent,
): Promise<number> {
  if (target.roles.length === 0) return 0;
  const which = sql`${holdsRole(target.context, target.roles)}
    and lower(u.username) <> lower(${target.exclude})`;
  return enqueueTo(db, kind, which, message);
}

/** Queues one message to one user (by username), if the user may receive it. */
export function enqueueToUser(
  db: Db,
  kind: NotificationKind,
  username: string,
  message: MessageContent,
): Promise<number> {
  return enqueueTo(db, kind, sql`lower(u.username) = lower(${username})`, message);
}

/** Queues one message to every administrator who may receive it. */
export function enqueueToAdministrators(
  db: Db,
  kind: NotificationKind,
  message: MessageContent,
): Promise<number> {
  return enqueueTo(db, kind, sql`u.isadmin`, message);
}

export interface RoleHolder {
  username: string;
}

/** The users holding one of `roles` in the context who may receive `kind`, by username. */
export async function roleHolders(
  db: Db,
  kind: NotificationKind,
  context: string,
  roles: readonly string[],
): Promise<RoleHolder[]> {
  if (roles.length === 0) return [];
  const { rows } = await sql<RoleHolder>`
    select u.username from app.users u
    where ${holdsRole(context, roles)} and ${reachable(kind)}
    order by u.username`.execute(db);
  return rows;
}

export interface OutboxMessage {
  message_id: number;
  recipient: string;
  subject: string;
  text_body: string;
  html_body: string;
  attempts: number;
}

/**
 * Claims up to `limit` due messages for `leaseSeconds`: a claimed message is not handed to another
 * sender until the lease ends, so each leaves once unless its sender dies mid-way.
 */
export async function claimDue(
  db: Db,
  limit: number,
  leaseSeconds: number,
): Promise<OutboxMessage[]> {
  const { rows } = await sql<OutboxMessage>`
    update app.outbox set claimed_until = now() + make_interval(secs => ${leaseSeconds}),
                          attempts = attempts + 1
    where message_id in (
      select message_id from app.outbox
      where status = 'queued' and next_attempt_at <= now()
        and (claimed_until is null or claimed_until < now())
      order by message_id limit ${limit}
      for update skip locked)
    returning message_id, recipient, subject, text_body, html_body, attempts`.execute(db);
  return rows.sort((a, b) => a.message_id - b.message_id);
}

/** Records the SMTP server's acceptance of messages, in one statement. */
export async function markSent(
  db: Db,
  sent: readonly { messageId: number; response: string }[],
): Promise<void> {
  if (sent.length === 0) return;
  await sql`update app.outbox o set status = 'sent', sent_at = now(), smtp_response = s.response,
              claimed_until = null, last_error = null
            from unnest(${sent.map((m) => m.messageId)}::bigint[], ${sent.map((m) => m.response)}::text[])
              as s(message_id, response)
            where o.message_id = s.message_id`.execute(db);
}

/** Records a failed try: the message waits `retryInSeconds`, or is given up when that is null. */
export async function markFailedTry(
  db: Db,
  messageId: number,
  error: string,
  retryInSeconds: number | null,
): Promise<void> {
  await sql`update app.outbox set last_error = ${error}, claimed_until = null,
              status = ${retryInSeconds === null ? "failed" : "queued"},
              next_attempt_at = now() + make_interval(secs => ${retryInSeconds ?? 0})
            where message_id = ${messageId}`.execute(db);
}

export interface FailedRow {
  message_id: number;
  kind: NotificationKind;
  recipient: string;
  subject: string;
  attempts: number;
  last_error: string | null;
  created_at: Date;
}

/** The outbox in numbers, and the latest messages given up. */
export async function outboxStatus(
  db: Db,
): Promise<{ queued: number; sent: number; failed: FailedRow[] }> {
  const { rows: counts } = await sql<{ status: string; n: number }>`
    select status, count(*)::int as n from app.outbox group by status`.execute(db);
  const { rows: failed } = await sql<FailedRow>`
    select message_id, kind, recipient, subject, attempts, last_error, created_at
    from app.outbox where status = 'failed' order by message_id desc limit 200`.execute(db);
  const count = (status: string) => counts.find((c) => c.status === status)?.n ?? 0;
  return { queued: count("queued"), sent: count("sent"), failed };
}
