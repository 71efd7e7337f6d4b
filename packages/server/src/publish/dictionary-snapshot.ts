import type { ScalarValue } from "@ledgerline/contract";
import type { Db } from "../db/connection.ts";
import type { ContextModel } from "../model/model.ts";
import { findEntityType } from "../model/model.ts";
import { runListQuery } from "../records/records.service.ts";

export type Row = Record<string, ScalarValue> & { key: number };

/** The approved state of the dictionary, as the wiki shows it. */
export interface DictionarySnapshot {
  applications: Row[];
  aspects: Row[];
  sources: Row[];
  objects: Row[];
  elements: Row[];
}

async function rowsOf(
  db: Db,
  context: ContextModel,
  typeName: string,
  attributes: string[],
): Promise<Row[]> {
  const type = findEntityType(context, typeName);
  if (!type) throw new Error(`The dictionary model has no '${typeName}' type`);
  const { data } = await runListQuery(db, context, type, {
    context: context.name,
    entityType: type.name,
    pageSize: 0,
    requestedAttributes: attributes,
    rowOrders: [{ attribute: attributes[0], asc: true }],
  });
  return data.map((r) => {
    const row: Row = { key: r.entityKeyID };
    for (const [name, v] of Object.entries(r.requested.attrValues)) {
      row[name] = v.value;
      if (v.label !== undefined) row[`${name}:label`] = v.label;
    }
    return row;
  });
}

const DOCS = ["intro", "editiondetail"];

/** Reads the approved (visible) records of the five dictionary types, one query each. */
export async function loadSnapshot(db: Db, context: ContextModel): Promise<DictionarySnapshot> {
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
      "systemenvironment",
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
      ...DOCS,
    ]),
    elements: await rowsOf(db, context, "dataelement", [
      "position",
      "name",
      "dataobject",
      "datatype",
      "nullable",
      "defaultvalue",
      "primarykey",
      "foreignkey",
      "description",
      ...DOCS,
    ]),
  };
}
