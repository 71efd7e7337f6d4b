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
  /** A view's (or materialized view's) query as the server shows it; null otherwise. */
  definition: string | null;
  /** Its indexes, primary and unique keys among them (a unique constraint is read as its index). */
  indexes: CatalogIndex[];
}

/** One index of a table (or materialized view), as the dictionary shows it. */
export interface CatalogIndex {
  name: string;
  primary: boolean;
  unique: boolean;
  /**
   * Its key parts in order: a column's name, or an expression as the server writes it, with the
   * length of a prefix (`name(10)`) and `DESC` (and a NULLS order other than the default) where so.
   */
  columns: string[];
  /** Columns the index only carries (PostgreSQL's INCLUDE). */
  include: string[];
  /** Its method where that is not a B-tree: gin, gist, hash, fulltext, spatial... */
  method: string | null;
  /** A partial index's condition. */
  where: string | null;
  /** Why the planner does not use it: `invalid` (PostgreSQL), `invisible` (MySQL), `ignored` (MariaDB). */
  state: string | null;
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
  /**
   * The unique keys and unique indexes (not the primary key) that have the column among their key
   * columns, by name in code-point order, separated by ', '; null when none.
   */
  uniquekey: string | null;
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

// Code-point order, so the text never depends on the machine's locale data.
const byCodePoint = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
// A long expression may come pretty-printed over several lines: each index keeps to one.
const oneLine = (text: string): string => text.replace(/\s*[\r\n]\s*/g, " ");

/** One index as a line: `orders_customer_idx UNIQUE (customer_id, placed DESC) WHERE total > 0`. */
export function indexLine(index: CatalogIndex): string {
  const kind = index.primary ? " PRIMARY KEY" : index.unique ? " UNIQUE" : "";
  const method = index.method ? ` USING ${index.method}` : "";
  const include = index.include.length > 0 ? ` INCLUDE (${index.include.join(", ")})` : "";
  const where = index.where ? ` WHERE ${index.where}` : "";
  const state = index.state ? ` ${index.state.toUpperCase()}` : "";
  return oneLine(
    `${index.name}${kind}${method} (${index.columns.join(", ")})${include}${where}${state}`,
  );
}

/**
 * An object's indexes as the dictionary stores them: one line each, by name in code-point order
 * (so that a re-import of the same indexes is no change); null when it has none.
 */
export function indexesText(indexes: readonly CatalogIndex[]): string | null {
  if (indexes.length === 0) return null;
  return [...indexes]
    .sort((a, b) => byCodePoint(a.name, b.name))
    .map(indexLine)
    .join("\n");
}

/** The names of unique keys as `uniquekey` holds them: distinct, in code-point order; null when none. */
export function uniqueKeyText(names: Iterable<string>): string | null {
  const sorted = [...new Set(names)].sort(byCodePoint);
  return sorted.length > 0 ? sorted.join(", ") : null;
}

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
