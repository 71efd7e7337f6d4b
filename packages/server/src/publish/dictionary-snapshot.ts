import type { ScalarValue } from "@ledgerline/contract";
import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { latestProfiles, type StoredProfile } from "../dictionary/column-profiles.repository.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { findEntityType } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { labelSql } from "../records/label-sql.ts";

export type Row = Record<string, ScalarValue> & { key: number };

/** The approved state of the dictionary, as the wiki shows it. */
export interface DictionarySnapshot {
  applications: Row[];
  aspects: Row[];
  sources: Row[];
  objects: Row[];
  elements: Row[];
  /** What each view reads (type `lineage`): `view`, `reads`, `readsobject`, `columns`. */
  lineage: Row[];
  /** The column profiles of each source's latest import that took them. */
  profiles: StoredProfile[];
}

function typeOf(context: ContextModel, name: string): EntityType {
  const type = findEntityType(context, name);
  if (!type) throw new Error(`The dictionary model has no '${name}' type`);
  return type;
}

/**
 * The visible records of a type as rows named as the pages read them: `key`, each attribute,
 * `ref.attribute` through a reference, `ref:label` for a reference's label. One query whose rows
 * are the answer as they come: a dictionary of 400,000 data elements is read in a second or two,
 * where the list query's general records (every stored column, a value object per attribute)
 * took several.
 */
async function rowsOf(
  db: Db,
  context: ContextModel,
  typeName: string,
  columns: readonly string[],
): Promise<Row[]> {
  const type = typeOf(context, typeName);
  const view = (t: EntityType) => sql.table(`${context.schema}.${viewNameOf(t.name)}`);
  const joins = new Map<string, { alias: string; target: EntityType }>();
  const joined = (reference: string) => {
    const attr = type.attributes.find((a) => a.name === reference);
    if (attr?.dataType !== "Reference" || !attr.referencedEntityType)
      throw new Error(`'${reference}' is not a reference of '${typeName}'`);
    const found = joins.get(reference) ?? {
      alias: `r${joins.size}`,
      target: typeOf(context, attr.referencedEntityType),
    };
    joins.set(reference, found);
    return found;
  };
  const selects: RawBuilder<unknown>[] = columns.map((column) => {
    const [reference, leaf] = column.split(".");
    if (leaf !== undefined) return sql`${sql.ref(`${joined(reference).alias}.${leaf}`)}`;
    if (column.endsWith(":label")) {
      const { alias, target } = joined(column.slice(0, -":label".length));
      return labelSql(target, alias);
    }
    if (!type.attributes.some((a) => a.name === column))
      throw new Error(`'${typeName}' has no attribute '${column}'`);
    return sql.ref(`v.${column}`);
  });
  const { rows } = await sql<Row>`
    select v.entity_key_id as key,
      ${sql.join(selects.map((s, i) => sql`${s} as ${sql.id(columns[i])}`))}
    from ${view(type)} v
    ${sql.join(
      [...joins].map(
        ([reference, { alias, target }]) =>
          sql`left join ${view(target)} ${sql.id(alias)} on ${sql.ref(`${alias}.entity_key_id`)} = ${sql.ref(`v.${reference}`)}`,
      ),
      sql` `,
    )}
    where not v.is_pending_new and not v.is_deleted
    order by ${sql.ref(`v.${columns[0]}`)}, v.entity_key_id`.execute(db);
  return rows;
}

const DOCS = ["intro", "editiondetail"];

/**
 * Reads the approved (visible) records of the six dictionary types, one query each, and the column
 * profiles of their sources.
 */
export async function loadSnapshot(db: Db, context: ContextModel): Promise<DictionarySnapshot> {
  const snapshot = await loadRecords(db, context);
  const profiles = await latestProfiles(
    db,
    snapshot.sources.map((s) => s.key),
  );
  return { ...snapshot, profiles };
}

async function loadRecords(
  db: Db,
  context: ContextModel,
): Promise<Omit<DictionarySnapshot, "profiles">> {
  return {
    applications: await rowsOf(db, context, "application", [
      "name",
      "description",
      "owner",
      ...DOCS,
    ]),
    aspects: await rowsOf(db, context, "applicationaspect", ["name", "description"]),
    sources: await rowsOf(db, context, "metadatasource", [
      "name",
      "description",
      "application",
      "applicationaspect",
      "applicationaspect:label",
      "systemenvironment",
      "systemenvironment:label",
      "systemenvironment.technology",
      ...DOCS,
    ]),
    objects: await rowsOf(db, context, "dataobject", [
      "name",
      "schema",
      "metadatasource",
      "kind",
      "description",
      "rowestimate",
      "lineage",
      "definition",
      "indexes",
      ...DOCS,
    ]),
    // A data element's page is its object's: its own curated documentation is not published.
    elements: await rowsOf(db, context, "dataelement", [
      "position",
      "name",
      "dataobject",
      "datatype",
      "nullable",
      "defaultvalue",
      "primarykey",
      "foreignkey",
      "uniquekey",
      "description",
    ]),
    lineage: await rowsOf(db, context, "lineage", ["view", "reads", "readsobject", "columns"]),
  };
}
