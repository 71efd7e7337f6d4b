import type { ContextModel, EntityType, Model } from "../model.ts";
import { storedAttributes } from "../model.ts";
import {
  type ColumnDef,
  type IndexKind,
  objectName,
  SQL_TYPES,
  TREE_PATH,
  viewFingerprint,
  viewSelectSql,
} from "./ddl.ts";

export interface DesiredIndex {
  name: string;
  kind: IndexKind;
  columns: string[];
}

export interface DesiredForeignKey {
  name: string;
  column: string;
  refTable: string;
}

export interface DesiredTable {
  schema: string;
  /** The context's name and the type's name, as the events name them. */
  context: string;
  table: string;
  columns: ColumnDef[];
  foreignKeys: DesiredForeignKey[];
  indexes: DesiredIndex[];
  view: { name: string; select: string; fingerprint: string };
  /** A tree's parent column, whose triggers keep the stored paths; null for other types. */
  treeParent: string | null;
  /** The table of the versions records had before their current one (what a past moment reads). */
  history: { table: string; indexes: DesiredIndex[] };
}

export interface DesiredState {
  schemas: string[];
  tables: DesiredTable[];
}

/** The name of a type's read view (with its formula columns). */
export function viewNameOf(typeName: string): string {
  return `${typeName}__v`;
}

/** The name of a type's history table (earlier versions of its records). */
export function historyNameOf(typeName: string): string {
  return objectName(typeName, "history");
}

/** What the database should hold for this model. Pure. */
export function desiredState(model: Model): DesiredState {
  return {
    schemas: model.contexts.map((c) => c.schema),
    tables: model.contexts.flatMap((c) => c.entityTypes.map((t) => desiredTable(c, t))),
  };
}

function desiredTable(context: ContextModel, type: EntityType): DesiredTable {
  const stored = storedAttributes(type);
  const columns = stored.map((a) => ({
    name: a.name,
    sqlType: SQL_TYPES[a.dataType],
    notNull: a.identity,
  }));
  const foreignKeys = stored
    .filter((a) => a.dataType === "Reference" && a.referencedEntityType)
    .map((a) => ({
      name: objectName(type.name, a.name, "fkey"),
      column: a.name,
      refTable: a.referencedEntityType as string,
    }));
  const identity = stored.filter((a) => a.identity).map((a) => a.name);
  const indexes: DesiredIndex[] = [
    { name: objectName(type.name, "identity"), kind: "unique", columns: identity },
  ];
  const tree = type.hierarchy;
  if (tree)
    indexes.push({
      name: objectName(type.name, TREE_PATH.name),
      kind: "treePath",
      columns: [TREE_PATH.name],
    });
  for (const a of stored) {
    // The unique identity index already serves lookups and sorts on its leading column; a unique
    // rule looks its values up on every save and upload.
    const unique = a.rules.some((r) => r.kind === "unique");
    // A tree's children are read a page at a time, in key order, straight from this index.
    if (a.parent)
      indexes.push({
        name: objectName(type.name, a.name, "tree"),
        kind: "tree",
        columns: [a.name, "entity_key_id"],
      });
    else if ((a.filter || a.dataType === "Reference" || unique) && a.name !== identity[0])
      indexes.push({
        name: objectName(type.name, a.name, "idx"),
        kind: "btree",
        columns: [a.name],
      });
    if (a.filter && a.dataType === "String") {
      indexes.push({
        name: objectName(type.name, a.name, "prefix"),
        kind: "prefix",
        columns: [a.name],
      });
      // A searchable text's Contains, EndsWith and Like read the folded words' index below.
      if (!a.searchable)
        indexes.push({
          name: objectName(type.name, a.name, "trgm"),
          kind: "trigram",
          columns: [a.name],
        });
    }
    if (a.searchable) {
      indexes.push({
        name: objectName(type.name, a.name, "search"),
        kind: "searchStart",
        columns: [a.name],
      });
      indexes.push({
        name: objectName(type.name, a.name, "words"),
        kind: "searchWords",
        columns: [a.name],
      });
    }
  }
  const formulas = type.attributes
    .filter((a) => a.formula !== "")
    .map((a) => ({ name: a.name, formula: a.formula, sqlType: SQL_TYPES[a.dataType] }));
  const select = viewSelectSql(context.schema, type.name, formulas);
  return {
    schema: context.schema,
    context: context.name,
    table: type.name,
    columns,
    foreignKeys,
    indexes,
    view: { name: viewNameOf(type.name), select, fingerprint: viewFingerprint(select) },
    treeParent: tree ? tree.parent.name : null,
    history: { table: historyNameOf(type.name), indexes: historyIndexes(type.name, indexes) },
  };
}

/**
 * A past moment is read from the table and its history side by side, in the same orders: the
 * history gets the table's btree indexes and its `lower()` pattern indexes, without the columns
 * they cover on the table (not unique: a record has many versions), lookups by record and by when a
 * version started and ended. Stored tree paths are today's, so a past tree is walked. Trigram searches
 * ('Contains', 'EndsWith') and the search box as of a past moment scan it.
 */
function historyIndexes(typeName: string, indexes: readonly DesiredIndex[]): DesiredIndex[] {
  const history = historyNameOf(typeName);
  return [
    {
      name: objectName(history, "record"),
      kind: "btree",
      columns: ["entity_key_id", "updated_at"],
    },
    { name: objectName(history, "from"), kind: "btree", columns: ["updated_at"] },
    { name: objectName(history, "to"), kind: "btree", columns: ["valid_to"] },
    ...indexes
      .filter((i) => !["trigram", "searchStart", "searchWords", "treePath"].includes(i.kind))
      .map((i) => ({
        name: objectName(history, ...i.columns, i.kind === "prefix" ? "pattern" : "idx"),
        kind: i.kind === "prefix" ? ("pattern" as const) : ("btree" as const),
        columns: i.columns,
      })),
  ];
}
