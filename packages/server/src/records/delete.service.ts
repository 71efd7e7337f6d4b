import type { DeleteRequest, MsgBody } from "@ledgerline/contract";
import { sql } from "kysely";
import { requireTypePermission, rightsIn } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { proposedBy } from "../changes/events.repository.ts";
import { counted } from "../counted.ts";
import type { Db } from "../db/connection.ts";
import { anyId } from "../db/id-array.ts";
import { ConflictError, ForbiddenError, NotFoundError } from "../errors.ts";
import { lockTypeShared } from "../ingest/ingest-lock.repository.ts";
import { type ContextModel, type EntityType, type Model, SYSTEM_COLUMNS } from "../model/model.ts";
import { markWebDigestDue, type Notifier } from "../notifications/notify.service.ts";
import { liveReferrersSql, referrersOf } from "./referrers.ts";
import { adjustTypeCount } from "./type-counts.repository.ts";

/**
 * Soft-deletes records from the web, set-based: with web approval each becomes a pending Delete
 * (replacing an earlier pending change of the record); without it they are discontinued at once.
 * A proposed new record that is deleted is simply withdrawn.
 */
export async function deleteRecords(
  db: Db,
  model: Model,
  user: CurrentUser,
  request: DeleteRequest,
  notifier: Notifier,
): Promise<MsgBody> {
  const rights = rightsIn(model, user, request.context);
  const type = requireTypePermission(rights, request.entityType, "delete");
  const context = rights.context;
  const t = sql.table(`${context.schema}.${type.name}`);
  const ids = [...new Set(request.entityKeyIds)];
  const hidden = sql.raw(`array[${SYSTEM_COLUMNS.map((c) => `'${c}'`).join(",")}]`);

  return db.transaction().execute(async (tx) => {
    // Several records are locked in key order: first let an ingest of the type end (lockTypeShared).
    if (ids.length > 1) await lockTypeShared(tx, { context, type });
    const { rows: found } = await sql<{
      entity_key_id: number;
      is_deleted: boolean;
      is_pending_new: boolean;
    }>`
      select entity_key_id, is_deleted, is_pending_new from ${t}
      where entity_key_id = ${anyId(ids)} for update`.execute(tx);
    const foundKeys = new Set(found.map((r) => Number(r.entity_key_id)));
    const unknown = ids.filter((id) => !foundKeys.has(id));
    if (unknown.length > 0) throw new NotFoundError(unknownKeys(type, unknown));

    const withdrawn = found
      .filter((r) => r.is_pending_new && !r.is_deleted)
      .map((r) => Number(r.entity_key_id));
    const live = found
      .filter((r) => !r.is_pending_new && !r.is_deleted)
      .map((r) => Number(r.entity_key_id));
    const already = found.length - withdrawn.length - live.length;
    if (!rights.flagsOf(type.name).canapprove)
      await assertOwnProposals(tx, context, type, withdrawn, user.username);
    await assertNotReferenced(tx, context, type, live);

    // A withdrawal or a deletion, proposed or done, replaces what waited for the record: left
    // pending, a change could never be approved against the discontinued record.
    const replaced = [...withdrawn, ...live];
    if (replaced.length > 0)
      await sql`
        update app.events set status = 'superseded', decided_by = ${user.username}, decided_at = now()
        where context = ${context.name} and entity_type = ${type.name}
          and entity_key_id = ${anyId(replaced)} and status = 'pending'`.execute(tx);
    if (withdrawn.length > 0) {
      await sql`update ${t} set is_deleted = true, updated_at = now(), updated_by = ${user.username}
        where entity_key_id = ${anyId(withdrawn)}`.execute(tx);
    }
    const pending = type.approval.web;
    if (live.length > 0) {
      const status = pending ? "pending" : "approved";
      const decidedBy = pending ? null : user.username;
      const { rows: events } = await sql<{ event_id: number; entity_key_id: number }>`
        insert into app.events (context, entity_type, entity_key_id, action, status, old_values, base_version,
                                source, created_by, decided_by, decided_at)
        select ${context.name}, ${type.name}, t.entity_key_id, 'Delete', ${status}, to_jsonb(t) - ${hidden},
               t.version, 'web', ${user.username}, ${decidedBy}, ${pending ? null : sql`now()`}
        from ${t} t where t.entity_key_id = ${anyId(live)}
        returning event_id, entity_key_id`.execute(tx);
      if (!pending) {
        await sql`
          update ${t} t set is_deleted = true, version = t.version + 1, updated_at = now(),
                 updated_by = ${user.username}, last_event_id = e.event_id
          from unnest(${events.map((e) => e.entity_key_id)}::bigint[], ${events.map((e) => e.event_id)}::bigint[])
            as e(key_id, event_id)
          where t.entity_key_id = e.key_id`.execute(tx);
        await adjustTypeCount(tx, context.name, type.name, -live.length);
      }
    }
    if (pending && live.length > 0) await markWebDigestDue(tx, notifier, context.name, type.name);
    const parts: string[] = [];
    if (live.length > 0)
      parts.push(
        pending
          ? counted(
              live.length,
              "deletion is waiting for approval",
              "deletions are waiting for approval",
            )
          : counted(live.length, "record deleted", "records deleted"),
      );
    if (withdrawn.length > 0)
      parts.push(
        counted(withdrawn.length, "proposed record withdrawn", "proposed records withdrawn"),
      );
    if (already > 0)
      parts.push(
        counted(already, "record was already discontinued", "records were already discontinued"),
      );
    return { Msg: parts.join("; ") };
  });
}

/** The 404 text naming unknown keys: the first ten, and how many there are when more. */
function unknownKeys(type: EntityType, unknown: readonly number[]): string {
  const named = unknown.slice(0, 10).join(", ");
  const more = unknown.length > 10 ? `, ... (${unknown.length} unknown keys in all)` : "";
  return `No ${type.uiName} record with key ${named}${more}`;
}

/**
 * Refuses (403) to withdraw proposed records that someone else proposed: without the approve
 * right, that would be rejecting their proposal.
 */
async function assertOwnProposals(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keyIds: readonly number[],
  username: string,
): Promise<void> {
  if (keyIds.length === 0) return;
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from app.events
    where context = ${context.name} and entity_type = ${type.name} and status = 'pending'
      and entity_key_id = ${anyId(keyIds)}
      and not ${proposedBy(username)}`.execute(db);
  if (rows[0].n > 0)
    throw new ForbiddenError(
      `Only the proposer or an approver can withdraw a proposed ${type.uiName} record (${rows[0].n} of those selected ${rows[0].n === 1 ? "was" : "were"} proposed by someone else); nothing was changed`,
    );
}

/** Refuses to discontinue records that other live records still refer to (409, naming the referrers). */
async function assertNotReferenced(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keyIds: readonly number[],
): Promise<void> {
  if (keyIds.length === 0) return;
  const keys = anyId(keyIds);
  for (const referrer of referrersOf(context, type)) {
    // Records of the type itself that are deleted along with them do not count.
    const besides =
      referrer.type.name === type.name
        ? sql<boolean>`o.entity_key_id <> all(${[...keyIds]}::bigint[])`
        : undefined;
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from (${liveReferrersSql(context, referrer, sql`= ${keys}`, besides)}) r`.execute(
      db,
    );
    if (rows[0].n > 0) {
      const other = referrer.type.uiName;
      throw new ConflictError(
        `Cannot delete: ${counted(rows[0].n, `${other} record still refers`, `${other} records still refer`)} to it (${referrer.attribute.uiName})`,
      );
    }
  }
}
