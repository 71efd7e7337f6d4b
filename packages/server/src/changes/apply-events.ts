import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { storedAttributes } from "../model/model.ts";
import { SQL_TYPES } from "../model/sync/ddl.ts";
import { historyNameOf } from "../model/sync/desired.ts";
import { writeWithIndexRebuild } from "../records/index-rebuild.ts";
import { adjustTypeCount } from "../records/type-counts.repository.ts";
import type { PendingEventRef } from "./pending.repository.ts";

export interface Conflict {
  entityEventID: number;
  entityKeyID: number;
  reason: string;
}

export interface ApplyResult {
  applied: number[];
  conflicts: Conflict[];
  /** Indexes a bulk write dropped, to be built once the transaction commits (afterDecision). */
  indexes?: string[];
}

const NEW_RECORD = new Set(["Create", "Add"]);
const REMOVAL = new Set(["Delete", "Missing"]);

/**
 * Applies pending events to their records and marks them approved, set-based: one statement per
 * kind of change, whatever the number of events. An event whose record changed since it was
 * proposed (version differs from its base version) is left pending and reported as a conflict.
 * Runs inside the caller's transaction; the events must be locked by the caller.
 */
export async function applyEvents(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  events: readonly PendingEventRef[],
  user: string,
): Promise<ApplyResult> {
  if (events.length === 0) return { applied: [], conflicts: [] };
  const t = sql.table(`${context.schema}.${type.name}`);
  const keys = events.map((e) => e.entity_key_id);
  const { rows: records } = await sql<{
    entity_key_id: number;
    version: number;
    is_deleted: boolean;
    is_pending_new: boolean;
  }>`
    select entity_key_id, version, is_deleted, is_pending_new from ${t}
    where entity_key_id = any(${keys}::bigint[]) order by entity_key_id for update`.execute(tx);
  const byKey = new Map(records.map((r) => [Number(r.entity_key_id), r]));

  const conflicts: Conflict[] = [];
  const ready: PendingEventRef[] = [];
  for (const e of events) {
    const record = byKey.get(e.entity_key_id);
    const proposedNew = NEW_RECORD.has(e.action) && record?.is_pending_new;
    if (!record)
      conflicts.push({
        entityEventID: e.event_id,
        entityKeyID: e.entity_key_id,
        reason: "the record no longer exists",
      });
    else if (!proposedNew && e.base_version !== null && e.base_version !== record.version)
      conflicts.push({
        entityEventID: e.event_id,
        entityKeyID: e.entity_key_id,
        reason: "the record changed since this change was proposed",
      });
    else ready.push(e);
  }

  const ids = (list: PendingEventRef[]) => list.map((e) => e.event_id);
  const creates = ready.filter(
    (e) => NEW_RECORD.has(e.action) && byKey.get(e.entity_key_id)?.is_pending_new,
  );
  const removals = ready.filter((e) => REMOVAL.has(e.action));
  const special = new Set([...creates, ...removals]);
  const changes = ready.filter((e) => !special.has(e));

  const common = sql`version = t.version + 1, updated_at = now(), updated_by = ${user}, last_event_id = e.event_id`;
  const fromEvents = (list: PendingEventRef[]) =>
    sql`from app.events e where e.event_id = any(${ids(list)}::bigint[]) and t.entity_key_id = e.entity_key_id`;

  const writeValues = async () => {
    if (creates.length > 0)
      await sql`update ${t} t set is_pending_new = false, is_deleted = false, ${assignments(type)}, ${common} ${fromEvents(creates)}`.execute(
        tx,
      );
    // Approving a change of a discontinued record (it reappeared in an upload) brings it back.
    if (changes.length > 0)
      await sql`update ${t} t set is_deleted = false, ${assignments(type)}, ${common} ${fromEvents(changes)}`.execute(
        tx,
      );
  };
  // Removals first: they stay on their pages while the free space there lasts, which rewritten
  // values would otherwise take; without new index entries too, on a type whose indexes hold no
  // flag (a StartsWith index covers is_deleted, see createIndexSql).
  if (removals.length > 0) {
    await sql`update ${t} t set is_deleted = true, ${common} ${fromEvents(removals)}`.execute(tx);
  }
  const rewritten = creates.length + changes.length;
  const { indexes } = await writeWithIndexRebuild(
    tx,
    context.schema,
    { table: type.name, history: historyNameOf(type.name) },
    rewritten,
    writeValues,
  );
  const revived = changes.filter((e) => byKey.get(e.entity_key_id)?.is_deleted).length;
  const removed = removals.filter((e) => !byKey.get(e.entity_key_id)?.is_deleted).length;
  await adjustTypeCount(tx, context.name, type.name, creates.length + revived - removed);
  await sql`update app.events set status = 'approved', decided_by = ${user}, decided_at = now()
    where event_id = any(${ids(ready)}::bigint[])`.execute(tx);
  return { applied: ids(ready), conflicts, indexes };
}

/** `col = new value if the event names it, else unchanged`, for every stored attribute. */
function assignments(type: EntityType): RawBuilder<unknown> {
  return sql.join(
    storedAttributes(type).map((a) => {
      const col = sql.id(a.name);
      return sql`${col} = case when e.new_values ? ${a.name} then (e.new_values ->> ${a.name})::${sql.raw(SQL_TYPES[a.dataType])} else t.${col} end`;
    }),
  );
}
