import { type RawBuilder, sql } from "kysely";
import type { CopyRows, Db } from "../db/connection.ts";
import type { CopyData } from "../db/copy-text.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { identityAttributes } from "../model/model.ts";
import { entityTable } from "../records/entity-table.ts";
import { decision, valuesOf, type WriteOptions } from "./write.repository.ts";

/**
 * Lets COPY write a first load's records straight into their table: while the transaction lasts,
 * each new record draws its event id from `events` (eventSequence) and takes the load's flag and
 * user as defaults. The caller holds the table exclusively, so no one else sees them;
 * clearLoadDefaults (or the rollback) takes them away.
 */
export async function setLoadDefaults(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  events: RawBuilder<unknown>,
  { apply, user }: WriteOptions,
): Promise<void> {
  await sql`alter table ${entityTable(context, type)}
    alter column last_event_id set default nextval(${events}),
    alter column is_pending_new set default ${sql.lit(!apply)},
    alter column created_by set default ${sql.lit(user)},
    alter column updated_by set default ${sql.lit(user)}`.execute(tx);
}

export async function clearLoadDefaults(
  tx: Db,
  context: ContextModel,
  type: EntityType,
): Promise<void> {
  await sql`alter table ${entityTable(context, type)}
    alter column last_event_id drop default, alter column is_pending_new set default false,
    alter column created_by drop default, alter column updated_by drop default`.execute(tx);
}

/** COPYs a chunk of new records (values of `attributes`, in that order) into the type's table. */
export async function copyRecords(
  tx: Db,
  copyRows: CopyRows,
  context: ContextModel,
  type: EntityType,
  attributes: readonly Attribute[],
  data: CopyData,
): Promise<void> {
  const columns = attributes.map((a) => a.name);
  await copyRows(tx, { schema: context.schema, table: type.name, columns }, data);
}

/**
 * Writes the Add events of the records copied after the key `after` (all of them, as the table
 * held none before the load), with the event ids they drew. Answers how many, and the last key.
 */
export async function writeAddEvents(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  attributes: readonly Attribute[],
  after: string,
  options: WriteOptions,
): Promise<{ events: number; last: string }> {
  const t = entityTable(context, type);
  const { rows } = await sql<{ last: string | null }>`
    select max(entity_key_id)::text as last from ${t}`.execute(tx);
  const last = rows[0].last ?? after;
  let events = 0;
  // EVENTS_PER_STATEMENT keys at a time. A range with both ends given: the planner, with no
  // statistics of a table loaded just now, still reads it through the primary key.
  const end = BigInt(last);
  for (let from = BigInt(after); from < end; from += EVENTS_PER_STATEMENT) {
    const to = from + EVENTS_PER_STATEMENT < end ? from + EVENTS_PER_STATEMENT : end;
    const written = await sql`
      insert into app.events (event_id, context, entity_type, entity_key_id, action, status, decided_by,
        decided_at, new_values, source, created_by)
      overriding system value
      select t.last_event_id, ${context.name}, ${type.name}, t.entity_key_id, 'Add', ${decision(options)},
        ${valuesOf(attributes, "t")}, ${options.source}, ${options.user}
      from ${t} t where t.entity_key_id > ${String(from)} and t.entity_key_id <= ${String(to)}`.execute(
      tx,
    );
    events += Number(written.numAffectedRows ?? 0n);
  }
  return { events, last };
}

/**
 * The most events one statement of a first load writes: on PGlite every other caller waits for
 * each statement, and an event costs about 40-60 us there (100-150 ms a statement).
 */
const EVENTS_PER_STATEMENT = 2_500n;

/**
 * Natural keys the loaded records repeat: the key text and the records' positions in load order
 * (1 for the first record loaded), at most `limit` keys, the earliest first.
 */
export async function repeatedKeys(
  tx: Db,
  context: ContextModel,
  type: EntityType,
  limit: number,
): Promise<{ key: string; positions: number[] }[]> {
  const cols = identityAttributes(type).map((a) => sql.id(a.name));
  const t = entityTable(context, type);
  const { rows } = await sql<{ key: string; positions: number[] }>`
    select concat_ws(' / ', ${sql.join(cols)}) as key, array_agg(position order by position) as positions
    from (select ${sql.join(cols)}, row_number() over (order by entity_key_id)::int as position from ${t}) d
    group by ${sql.join(cols)} having count(*) > 1
    order by min(position) limit ${limit}`.execute(tx);
  return rows;
}
