import fs from "node:fs/promises";
import path from "node:path";
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { ContextModel, EntityType, Model } from "./model.ts";
import { findEntityType, identityAttributes, SYSTEM_COLUMNS, storedAttributes } from "./model.ts";
import { SQL_TYPES } from "./sync/ddl.ts";

export interface SeedResult {
  context: string;
  entityType: string;
  rows: number;
}

/**
 * Loads each type's seed file into its table when the table is empty: set-based, one approved
 * Create event per record. Demo-only seeds are skipped unless `demo` is on.
 */
export async function seedData(
  db: Kysely<unknown>,
  model: Model,
  modelDir: string,
  options: { demo: boolean; user: string },
): Promise<SeedResult[]> {
  const results: SeedResult[] = [];
  for (const context of model.contexts) {
    for (const type of context.entityTypes) {
      if (!type.seed || (type.seed.demoOnly && !options.demo)) continue;
      const file = path.resolve(modelDir, type.seed.file);
      const rows = JSON.parse(await fs.readFile(file, "utf8")) as unknown;
      if (!Array.isArray(rows))
        throw new Error(`${file}: a seed file holds a JSON array of records`);
      const inserted = await db
        .transaction()
        .execute((tx) => seedType(tx, context, type, rows, options.user));
      if (inserted > 0)
        results.push({ context: context.name, entityType: type.name, rows: inserted });
    }
  }
  return results;
}

async function seedType(
  tx: Kysely<unknown>,
  context: ContextModel,
  type: EntityType,
  rows: unknown[],
  user: string,
): Promise<number> {
  const table = sql.table(`${context.schema}.${type.name}`);
  const { rows: existing } = await sql<{
    n: number;
  }>`select count(*)::int as n from ${table}`.execute(tx);
  if (existing[0].n > 0 || rows.length === 0) return 0;

  const attrs = storedAttributes(type);
  const recordset = sql.join(
    attrs.map(
      (a) =>
        sql`${sql.id(a.name)} ${sql.raw(a.dataType === "Reference" ? "text" : SQL_TYPES[a.dataType])}`,
    ),
  );
  const joins: RawBuilder<unknown>[] = [];
  const values = attrs.map((a, i) => {
    if (a.dataType !== "Reference") return sql`src.${sql.id(a.name)}`;
    // A record of the file may be another's parent: set once all are inserted (linkSelfReferences).
    if (a.referencedEntityType === type.name) return sql`null::bigint`;
    const target = findEntityType(context, a.referencedEntityType as string) as EntityType;
    const key = identityAttributes(target);
    if (key.length !== 1)
      throw new Error(
        `${type.name}.${a.name}: seeds can only reference types with one identity attribute`,
      );
    const alias = `r${i}`;
    joins.push(
      sql`left join ${sql.table(`${context.schema}.${target.name}`)} as ${sql.id(alias)} on ${sql.id(alias, key[0].name)}::text = src.${sql.id(a.name)}`,
    );
    return sql`${sql.id(alias, "entity_key_id")}`;
  });
  const columns = sql.join(attrs.map((a) => sql.id(a.name)));
  const hidden = sql.raw(`array[${SYSTEM_COLUMNS.map((c) => `'${c}'`).join(",")}]`);

  const { rows: counted } = await sql<{ n: number }>`
    with src as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as src(${recordset})
    ),
    ins as (
      insert into ${table} (${columns}, created_by, updated_by)
      select ${sql.join(values)}, ${user}, ${user} from src ${sql.join(joins, sql` `)}
      returning *
    )
    insert into app.events (context, entity_type, entity_key_id, action, status, new_values,
                            base_version, source, created_by, decided_by, decided_at)
    select ${context.name}, ${type.name}, ins.entity_key_id, 'Create', 'approved',
           to_jsonb(ins) - ${hidden}, 1, 'seed', ${user}, ${user}, now()
    from ins
    returning 1`.execute(tx);
  // A statement cannot see rows its own CTEs inserted, so the event ids are linked in a second one.
  await sql`
    update ${table} t set last_event_id = e.event_id
    from app.events e
    where e.context = ${context.name} and e.entity_type = ${type.name}
      and e.entity_key_id = t.entity_key_id and t.last_event_id is null`.execute(tx);

  await linkSelfReferences(tx, context, type, rows);
  const unresolved = attrs.filter((a) => a.dataType === "Reference" && !a.nullable);
  for (const a of unresolved) {
    const { rows: bad } = await sql<{ n: number }>`
      select count(*)::int as n from ${table} where ${sql.id(a.name)} is null`.execute(tx);
    if (bad[0].n > 0)
      throw new Error(`${type.seed?.file}: ${bad[0].n} records have an unknown ${a.name}`);
  }
  await sql`
    insert into app.type_counts (context, entity_type, row_count) values (${context.name}, ${type.name}, ${counted.length})
    on conflict (context, entity_type) do update set row_count = app.type_counts.row_count + excluded.row_count`.execute(
    tx,
  );
  return counted.length;
}

/**
 * Sets the references of a seed's records to records of the same file (a tree's parents), which
 * the insert could not see, in the records and in their Create events.
 */
async function linkSelfReferences(
  tx: Kysely<unknown>,
  context: ContextModel,
  type: EntityType,
  rows: unknown[],
): Promise<void> {
  const key = identityAttributes(type);
  const selfReferences = storedAttributes(type).filter(
    (a) => a.dataType === "Reference" && a.referencedEntityType === type.name,
  );
  if (selfReferences.length === 0) return;
  if (key.length !== 1)
    throw new Error(`${type.name}: seeds can only reference types with one identity attribute`);
  const table = sql.table(`${context.schema}.${type.name}`);
  const id = sql.id(key[0].name);
  for (const a of selfReferences) {
    const column = sql.id(a.name);
    await sql`with src as (
        select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as src(${id} text, ${column} text)
      ), linked as (
        update ${table} t set ${column} = p.entity_key_id
        from src join ${table} p on p.${id}::text = src.${column}
        where t.${id}::text = src.${id}
        returning t.entity_key_id, t.${column} as target
      )
      update app.events e set new_values = e.new_values || jsonb_build_object(${a.name}::text, l.target)
      from linked l
      where e.context = ${context.name} and e.entity_type = ${type.name}
        and e.entity_key_id = l.entity_key_id and e.source = 'seed'`.execute(tx);
  }
}
