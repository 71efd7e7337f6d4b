import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";

/** Who scheduled a metadata source: an active user and the roles they hold in the context. */
export interface ScheduledBy {
  username: string;
  roles: string[];
}

/**
 * The author of the change now in force on the metadata source (its record's last event: the
 * save that left `enableschedule` as it is), if that author is an active user, with their roles in
 * the context. Undefined for an unknown source, a record no person wrote (seeded), or an author
 * removed since.
 */
export async function scheduledBy(
  db: Db,
  context: ContextModel,
  metadatasource: EntityType,
  sourceKey: number,
): Promise<ScheduledBy | undefined> {
  const { rows } = await sql<ScheduledBy>`
    select u.username,
      coalesce(array(select r.role from app.user_roles r
                     where r.user_id = u.user_id and r.context = ${context.name}
                     order by r.role), '{}') as roles
    from ${sql.table(`${context.schema}.${metadatasource.name}`)} t
    join app.events e on e.event_id = t.last_event_id
    join app.users u on lower(u.username) = lower(e.created_by) and not u.is_deleted
    where t.entity_key_id = ${sourceKey}`.execute(db);
  return rows[0];
}
