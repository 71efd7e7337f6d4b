import type { NotificationKind } from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";

/** The kinds a user switched off or on again; kinds without a row are on. */
export async function settingsOf(
  db: Db,
  userIds: readonly number[],
): Promise<{ user_id: number; kind: NotificationKind; enabled: boolean }[]> {
  if (userIds.length === 0) return [];
  const { rows } = await sql<{ user_id: number; kind: NotificationKind; enabled: boolean }>`
    select user_id, kind, enabled from app.notification_settings
    where user_id = any(${[...userIds]}::bigint[])`.execute(db);
  return rows;
}

/** Switches one kind on or off for a user. */
export async function saveSetting(
  db: Db,
  userId: number,
  kind: NotificationKind,
  enabled: boolean,
): Promise<void> {
  await sql`insert into app.notification_settings (user_id, kind, enabled)
            values (${userId}, ${kind}, ${enabled})
            on conflict (user_id, kind) do update set enabled = excluded.enabled`.execute(db);
}

/** Pending events per context, type and whether the user made them, for the types given. */
export async function pendingByAuthor(
  db: Db,
  username: string,
  contexts: readonly string[],
): Promise<{ context: string; entity_type: string; mine: boolean; n: number }[]> {
  if (contexts.length === 0) return [];
  const { rows } = await sql<{ context: string; entity_type: string; mine: boolean; n: number }>`
    select context, entity_type, lower(created_by) = lower(${username}) as mine, count(*)::int as n
    from app.events
    where status = 'pending' and context = any(${[...contexts]}::text[])
    group by 1, 2, 3`.execute(db);
  return rows;
}
