import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { findEntityType, identityAttributes } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { labelSql } from "../records/label-sql.ts";

/**
 * Resolves reference texts to key ids in one query per referenced type and chunk: by the referenced
 * type's identity (when it has a single one) or its label, case-insensitively. Only visible records
 * can be referenced. Answers lower-cased text -> key id; ambiguous labels are left out.
 */
export async function resolveReferences(
  db: Db,
  context: ContextModel,
  attr: Attribute,
  texts: ReadonlySet<string>,
): Promise<Map<string, number>> {
  const target = findEntityType(context, attr.referencedEntityType as string) as EntityType;
  const wanted = [...texts].map((t) => t.toLowerCase());
  if (wanted.length === 0) return new Map();
  const identity = identityAttributes(target);
  const key =
    identity.length === 1 ? sql`lower(v.${sql.id(identity[0].name)}::text)` : sql`null::text`;
  const label = sql`lower(${labelSql(target, "v")})`;
  const { rows } = await sql<{ id: number; key: string | null; label: string }>`
    select v.entity_key_id as id, ${key} as key, ${label} as label
    from ${sql.table(`${context.schema}.${viewNameOf(target.name)}`)} v
    where not v.is_deleted and not v.is_pending_new
      and (${key} = any(${wanted}::text[]) or ${label} = any(${wanted}::text[]))`.execute(db);
  const byKey = new Map<string, number>();
  const byLabel = new Map<string, number | null>();
  for (const r of rows) {
    if (r.key !== null) byKey.set(r.key, r.id);
    byLabel.set(r.label, byLabel.has(r.label) && byLabel.get(r.label) !== r.id ? null : r.id);
  }
  const resolved = new Map<string, number>();
  for (const w of wanted) {
    const id = byKey.get(w) ?? byLabel.get(w);
    if (typeof id === "number") resolved.set(w, id);
  }
  return resolved;
}

/**
 * The text a file names each of these referenced records by: its identity when the referenced type
 * has a single one, else its label; what resolveReferences reads back. Answers key id -> text.
 */
export async function referenceTexts(
  db: Db,
  context: ContextModel,
  attr: Attribute,
  keyIds: readonly number[],
): Promise<Map<number, string>> {
  if (keyIds.length === 0) return new Map();
  const target = findEntityType(context, attr.referencedEntityType as string) as EntityType;
  const identity = identityAttributes(target);
  const text =
    identity.length === 1 ? sql`v.${sql.id(identity[0].name)}::text` : labelSql(target, "v");
  const { rows } = await sql<{ id: string; text: string }>`
    select v.entity_key_id as id, ${text} as text
    from ${sql.table(`${context.schema}.${viewNameOf(target.name)}`)} v
    where v.entity_key_id = any(${keyIds}::bigint[])`.execute(db);
  return new Map(rows.map((r) => [Number(r.id), r.text]));
}
