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

export interface Catalog {
  objects: CatalogObject[];
  elements: CatalogElement[];
}

/** A catalog being read: its objects, and its columns, which take most of the read, still to come. */
export interface CatalogReading {
  objects: CatalogObject[];
  elements: Promise<CatalogElement[]>;
}
