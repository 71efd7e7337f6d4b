import type { Catalog, CatalogObject, ColumnProfile } from "./catalog.ts";

/**
 * A source database reached through one connection file. Its failures are SourceConnectionErrors,
 * worded for users; a connection file that cannot be read or holds what it may not is refused
 * when it is opened, as an AppError naming the file only.
 */
export interface SourceConnection {
  /** Connects (read-only, with a short timeout) and asks the server's version. */
  ping(): Promise<void>;
  /**
   * Reads the documented objects and their columns in one consistent, read-only snapshot,
   * handing the objects to `objectsRead` as soon as they are read.
   */
  readCatalog(objectsRead: (objects: CatalogObject[]) => void): Promise<Catalog>;
  /**
   * Profiles the columns of the catalog's tables (read-only, never locking more than a plain
   * SELECT), reading no value of a column whose name matches one of `sensitive` (regular
   * expressions, see sensitive-columns.ts).
   */
  profileColumns(catalog: Catalog, sensitive: readonly string[]): Promise<ColumnProfile[]>;
}

/** What the dictionary needs of a database technology: one folder under sources/ each. */
export interface SourceAdapter {
  /** Reads the connection file `fileName` of the folder `connectionsDir`, with its secrets. */
  open(connectionsDir: string, fileName: string): Promise<SourceConnection>;
}
