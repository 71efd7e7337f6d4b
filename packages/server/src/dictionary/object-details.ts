import type {
  DownstreamLineage,
  LinkedDataObject,
  ObjectDetailsResponse,
  UpstreamLineage,
} from "@ledgerline/contract";
import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { NotFoundError } from "../errors.ts";
import type { ContextModel } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { latestProfiles } from "./column-profiles.repository.ts";

interface ObjectRow {
  key: number;
  schema: string;
  name: string;
  kind: string;
}

const linked = (row: ObjectRow): LinkedDataObject => ({
  entityKeyID: Number(row.key),
  schema: row.schema,
  name: row.name,
  kind: row.kind,
});

/**
 * A data object's column profiles, indexes, definition and lineage, as the dictionary shows them:
 * the object may be discontinued, the lineage and the objects it names are the approved, live
 * records (as the wiki's). A proposed object not yet approved is not found, as in the explorer's
 * list.
 */
export async function objectDetails(
  db: Db,
  context: ContextModel,
  objectKey: number,
): Promise<ObjectDetailsResponse> {
  const view = (typeName: string) => sql.table(`${context.schema}.${viewNameOf(typeName)}`);
  const objects = view("dataobject");
  const lineage = view("lineage");
  const { rows: found } = await sql<
    ObjectRow & {
      lineage: string | null;
      definition: string | null;
      indexes: string | null;
      source: number;
    }
  >`
    select o.entity_key_id as key, o.schema, o.name, o.kind, o.lineage, o.definition, o.indexes,
      o.metadatasource as source
    from ${objects} o
    where o.entity_key_id = ${objectKey} and not o.is_pending_new`.execute(db);
  const object = found[0];
  if (!object) throw new NotFoundError(`Data object ${objectKey} does not exist`);

  const { rows: upstream } = await sql<{
    reads: string;
    columns: string | null;
    key: number | null;
    schema: string;
    name: string;
    kind: string;
  }>`
    select l.reads, l.columns, o.entity_key_id as key, o.schema, o.name, o.kind
    from ${lineage} l
    left join ${objects} o on o.entity_key_id = l.readsobject
      and not o.is_pending_new and not o.is_deleted
    where l.view = ${objectKey} and not l.is_pending_new and not l.is_deleted
    order by l.reads, l.entity_key_id`.execute(db);
  const { rows: downstream } = await sql<ObjectRow & { columns: string | null }>`
    select l.columns, o.entity_key_id as key, o.schema, o.name, o.kind
    from ${lineage} l
    join ${objects} o on o.entity_key_id = l.view and not o.is_pending_new and not o.is_deleted
    where l.readsobject = ${objectKey} and not l.is_pending_new and not l.is_deleted
    order by o.schema, o.name, o.entity_key_id`.execute(db);
  const { rows: positions } = await sql<{ name: string; position: number | null }>`
    select e.name, e.position from ${view("dataelement")} e
    where e.dataobject = ${objectKey} and not e.is_pending_new and not e.is_deleted`.execute(db);

  const profiles = await latestProfiles(db, [Number(object.source)], object);
  const positionOf = new Map(positions.map((p) => [p.name, Number(p.position ?? 0)]));
  // Columns no longer documented come last, by name.
  const order = (column: string) => positionOf.get(column) ?? Number.MAX_SAFE_INTEGER;
  profiles.sort((a, b) => order(a.column) - order(b.column) || a.column.localeCompare(b.column));

  return {
    object: {
      ...linked(object),
      lineage: object.lineage,
      definition: object.definition,
      indexes: object.indexes ? object.indexes.split("\n") : [],
    },
    profiledAt: profiles[0]?.takenAt.toISOString() ?? null,
    profiles: profiles.map((p) => ({
      column: p.column,
      method: p.method,
      rowCount: p.rowCount,
      nullShare: p.nullShare,
      distinctCount: p.distinctCount,
      minValue: p.minValue,
      maxValue: p.maxValue,
      avgLength: p.avgLength,
      topValues: p.topValues,
    })),
    upstream: upstream.map(
      (u): UpstreamLineage => ({
        reads: u.reads,
        object: u.key === null ? null : linked({ ...u, key: u.key }),
        columns: u.columns,
      }),
    ),
    downstream: downstream.map((d): DownstreamLineage => ({ view: linked(d), columns: d.columns })),
  };
}
