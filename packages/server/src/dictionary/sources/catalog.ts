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
