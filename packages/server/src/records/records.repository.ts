import type { ScalarValue } from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { anyId } from "../db/id-array.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { identityAttributes, storedAttributes } from "../model/model.ts";

export interface StoredRecord {
  entityKeyId: number;
  version: number;
  isDeleted: boolean;
  isPendingNew: boolean;
  values: Record<string, ScalarValue>;
}

const table = (context: ContextModel, type: EntityType) =>
  sql.table(`${context.schema}.${type.name}`);

function toStored(type: EntityType, row: Record<string, unknown>): StoredRecord {
  return {
    entityKeyId: Number(row.entity_key_id),
    version: Number(row.version),
    isDeleted: row.is_deleted === true,
    isPendingNew: row.is_pending_new === true,
    values: Object.fromEntries(
      storedAttributes(type).map((a) => [a.name, (row[a.name] ?? null) as ScalarValue]),
    ),
  };
}

/** The record with this key, locked for the rest of the transaction. */
export async function lockRecord(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keyId: number,
): Promise<StoredRecord | undefined> {
  const { rows } = await sql<Record<string, unknown>>`
    select * from ${table(context, type)} where entity_key_id = ${keyId} for update`.execute(db);
  return rows[0] ? toStored(type, rows[0]) : undefined;
}

/**
 * The key of the record with these identity values (discontinued records included). A rejected
 * proposal (a new record never approved) is left out unless asked for: its key is free again.
 */
export async function keyOfIdentity(
  db: Db,
  context: ContextModel,
  type: EntityType,
  identity: Record<string, ScalarValue>,
  options: { includeRejectedProposals?: boolean } = {},
): Promise<number | undefined> {
  const conditions = identityAttributes(type).map(
    (a) => sql`${sql.id(a.name)} = ${identity[a.name]}`,
  );
  if (!options.includeRejectedProposals) conditions.push(sql`not (is_pending_new and is_deleted)`);
  const { rows } = await sql<{ entity_key_id: number }>`
    select entity_key_id from ${table(context, type)} where ${sql.join(conditions, sql` and `)}`.execute(
    db,
  );
  return rows[0] ? Number(rows[0].entity_key_id) : undefined;
}

/** Which of these keys are visible records (approved, not discontinued) of the type. */
export async function visibleKeys(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keyIds: readonly number[],
): Promise<Set<number>> {
  if (keyIds.length === 0) return new Set();
  const { rows } = await sql<{ entity_key_id: number }>`
    select entity_key_id from ${table(context, type)}
    where entity_key_id = ${anyId(keyIds)} and not is_deleted and not is_pending_new`.execute(db);
  return new Set(rows.map((r) => Number(r.entity_key_id)));
}

export async function insertRecord(
  db: Db,
  context: ContextModel,
  type: EntityType,
  values: Record<string, ScalarValue>,
  options: { pendingNew: boolean; user: string },
): Promise<number> {
  const names = Object.keys(values);
  const { rows } = await sql<{ entity_key_id: number }>`
    insert into ${table(context, type)} (${sql.join(names.map((n) => sql.id(n)))}, is_pending_new, created_by, updated_by)
    values (${sql.join(names.map((n) => values[n]))}, ${options.pendingNew}, ${options.user}, ${options.user})
    returning entity_key_id`.execute(db);
  return Number(rows[0].entity_key_id);
}

/** Writes values (may be none) and the system columns; the version goes up by one. */
export async function updateRecord(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keyId: number,
  change: {
    values: Record<string, ScalarValue>;
    isDeleted?: boolean;
    isPendingNew?: boolean;
    user: string;
    eventId: number;
  },
): Promise<void> {
  const sets = Object.entries(change.values).map(
    ([name, value]) => sql`${sql.id(name)} = ${value}`,
  );
  if (change.isDeleted !== undefined) sets.push(sql`is_deleted = ${change.isDeleted}`);
  if (change.isPendingNew !== undefined) sets.push(sql`is_pending_new = ${change.isPendingNew}`);
  sets.push(
    sql`version = version + 1`,
    sql`updated_at = now()`,
    sql`updated_by = ${change.user}`,
    sql`last_event_id = ${change.eventId}`,
  );
  await sql`update ${table(context, type)} set ${sql.join(sets)} where entity_key_id = ${keyId}`.execute(
    db,
  );
}

/** Links a record to its latest event without counting it as a change (pending proposals). */
export async function setLastEvent(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keyId: number,
  eventId: number,
): Promise<void> {
  await sql`update ${table(context, type)} set last_event_id = ${eventId} where entity_key_id = ${keyId}`.execute(
    db,
  );
}

/**
 * Every record (any state but a rejected proposal) whose attribute holds the value: key id and
 * values of the named attributes.
 */
export async function recordsWhere(
  db: Db,
  context: ContextModel,
  type: EntityType,
  where: { attribute: string; value: ScalarValue },
  attributes: readonly string[],
): Promise<{ entityKeyId: number; values: Record<string, ScalarValue> }[]> {
  const { rows } = await sql<Record<string, ScalarValue>>`
    select entity_key_id, ${sql.join(attributes.map((a) => sql.id(a)))} from ${table(context, type)}
    where ${sql.id(where.attribute)} = ${where.value} and not (is_pending_new and is_deleted)`.execute(
    db,
  );
  return rows.map((r) => ({
    entityKeyId: Number(r.entity_key_id),
    values: Object.fromEntries(attributes.map((a) => [a, r[a] ?? null])),
  }));
}

/** The stored values of the records with these keys. */
export async function recordsByKeys(
  db: Db,
  context: ContextModel,
  type: EntityType,
  keyIds: readonly number[],
): Promise<StoredRecord[]> {
  if (keyIds.length === 0) return [];
  const { rows } = await sql<Record<string, unknown>>`
    select * from ${table(context, type)} where entity_key_id = any(${keyIds}::bigint[])`.execute(
    db,
  );
  return rows.map((row) => toStored(type, row));
}
