/**
 * A source's catalog in the shape the import engine takes, whatever the technology: each adapter
 * (sources/<technology>/) reads its database's catalog into it.
 */
export interface CatalogObject {
  schema: string;
  name: string;
  kind: string;
  description: string | null;
  rowestimate: number | null;
  /** A view's: how what it reads was found, or why it could not be (see LINEAGE); null otherwise. */
  lineage: string | null;
}

export interface CatalogElement {
  schema: string;
  object: string;
  name: string;
  position: number;
  datatype: string;
  nullable: boolean;
  defaultvalue: string | null;
  primarykey: boolean;
  foreignkey: string | null;
  description: string | null;
}

/** One table or view that a view reads, with the columns of it that the view reads. */
export interface CatalogLineage {
  schema: string;
  view: string;
  readsSchema: string;
  readsName: string;
  columns: string[];
}

/** A view's `lineage` as the dictionary states it. */
export const LINEAGE = {
  catalog: "read from the database's dependencies",
  parsed: "parsed from the view's definition",
  notParsed: (why: string) => `not known: ${why}`,
} as const;

export interface Catalog {
  objects: CatalogObject[];
  elements: CatalogElement[];
  lineage: CatalogLineage[];
}

/**
 * A catalog being read: its objects, and its columns and lineage, which take most of the read,
 * still to come.
 */
export interface CatalogReading {
  objects: CatalogObject[];
  rest: Promise<Pick<Catalog, "elements" | "lineage">>;
}

/**
 * What an import found in one column's data: from the source's own statistics, a bounded sample,
 * or nothing but that the column is sensitive (its values never read) or was never analysed.
 */
export interface ColumnProfile {
  schema: string;
  object: string;
  column: string;
  method: "statistics" | "sample" | "sensitive" | "none";
  rowCount: number | null;
  nullShare: number | null;
  distinctCount: number | null;
  minValue: string | null;
  maxValue: string | null;
  avgLength: number | null;
  /** The most common values with their share of the rows, most common first. */
  topValues: { value: string; share: number }[] | null;
}

/** A profile with nothing measured yet. */
export const emptyProfile = (
  column: Pick<ColumnProfile, "schema" | "object" | "column" | "method">,
): ColumnProfile => ({
  ...column,
  rowCount: null,
  nullShare: null,
  distinctCount: null,
  minValue: null,
  maxValue: null,
  avgLength: null,
  topValues: null,
});
