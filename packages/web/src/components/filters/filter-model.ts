import {
  type AttributeInfo,
  type DataType,
  OPERATORS_BY_TYPE,
  type RowConstraint,
  TREE_OPERATORS,
} from "@ledgerline/contract";

/** One filter row as typed: the value stays text until the query is built. */
export interface FilterRow {
  id: number;
  attribute: string;
  operator: string;
  value: string;
}

/** A 'search N' tab: its filters are ANDed; enabled tabs are ORed. */
export interface FilterTab {
  id: number;
  enabled: boolean;
  filters: FilterRow[];
}

/** The operators offered for a data type (SPEC.md section 7, as the server accepts them). */
export function operatorsOf(dataType: DataType): readonly string[] {
  // Booleans and references offer only '=': '= false' or '= null' read better than '!='.
  return dataType === "Boolean" || dataType === "Reference" ? ["="] : OPERATORS_BY_TYPE[dataType];
}

/** The operators offered for an attribute: a tree's parent also filters by Descendants and Ancestors. */
export function attributeOperators(attr: AttributeInfo): readonly string[] {
  const own = operatorsOf(attr.dataType);
  return attr.parent ? [...own, ...TREE_OPERATORS] : own;
}

/** How an operator reads in the filter row. */
export function operatorText(operator: string): string {
  return (TREE_OPERATORS as readonly string[]).includes(operator) ? `${operator} of` : operator;
}

/** Offered in the 'add filter' list: filterable attributes, and generated ones (disabled). */
export function filterChoices(attributes: readonly AttributeInfo[]): AttributeInfo[] {
  return attributes.filter((a) => a.filter || a.generated);
}

let nextId = 1;
const newId = () => nextId++;

export function newTab(): FilterTab {
  return { id: newId(), enabled: true, filters: [] };
}

export function newFilter(attr: AttributeInfo): FilterRow {
  const value = attr.dataType === "Boolean" ? "true" : "";
  return { id: newId(), attribute: attr.name, operator: operatorsOf(attr.dataType)[0], value };
}

export type ParsedValue =
  | { kind: "empty" }
  | { kind: "invalid"; reason: string }
  | { kind: "ok"; value: string | number | boolean | null };

/** Converts the typed text to the value the server expects; numbers that are NaN are invalid. */
export function parseFilterValue(dataType: DataType, text: string): ParsedValue {
  const trimmed = text.trim();
  switch (dataType) {
    case "String":
      return text === "" ? { kind: "empty" } : { kind: "ok", value: text };
    case "Number": {
      if (trimmed === "") return { kind: "empty" };
      const value = Number(trimmed);
      return Number.isNaN(value)
        ? { kind: "invalid", reason: "not a number" }
        : { kind: "ok", value };
    }
    case "Boolean":
      if (trimmed === "null") return { kind: "ok", value: null };
      return trimmed === "" ? { kind: "empty" } : { kind: "ok", value: trimmed === "true" };
    case "Reference":
      return trimmed === "" ? { kind: "empty" } : { kind: "ok", value: Number(trimmed) };
    case "Date":
      if (trimmed === "") return { kind: "empty" };
      return /^\d{4}-\d{2}-\d{2}$/.test(trimmed)
        ? { kind: "ok", value: trimmed }
        : { kind: "invalid", reason: "not a date" };
  }
}

/** The constraint of a complete, valid row; undefined for an empty or invalid one. */
export function toConstraint(
  row: FilterRow,
  attributes: readonly AttributeInfo[],
): RowConstraint | undefined {
  const attr = attributes.find((a) => a.name === row.attribute);
  if (!attr || attr.generated) return undefined;
  const parsed = parseFilterValue(attr.dataType, row.value);
  if (parsed.kind !== "ok") return undefined;
  return { attribute: row.attribute, operator: row.operator, values: [parsed.value] };
}

/** One AND group per enabled tab that has at least one complete filter (the OR of the panel). */
export function toConstraintGroups(
  tabs: readonly FilterTab[],
  attributes: readonly AttributeInfo[],
): RowConstraint[][] {
  return tabs
    .filter((t) => t.enabled)
    .map((t) =>
      t.filters
        .map((f) => toConstraint(f, attributes))
        .filter((c): c is RowConstraint => c !== undefined),
    )
    .filter((group) => group.length > 0);
}

/** How many filters of enabled tabs take part in the search (the toggle button's badge). */
export function activeFilterCount(
  tabs: readonly FilterTab[],
  attributes: readonly AttributeInfo[],
): number {
  return toConstraintGroups(tabs, attributes).reduce((n, g) => n + g.length, 0);
}

type TabsUpdate = (tabs: FilterTab[]) => FilterTab[];

const inTab =
  (tabId: number, change: (filters: FilterRow[]) => FilterRow[]): TabsUpdate =>
  (tabs) =>
    tabs.map((t) => (t.id === tabId ? { ...t, filters: change(t.filters) } : t));

/**
 * A filter of the first tab (a new tab when there is none) on the tree's parent: `operator`
 * (Descendants, Ancestors) of the record `key`, the tab enabled.
 */
export function withTreeFilter(
  tabs: readonly FilterTab[],
  parent: AttributeInfo,
  operator: (typeof TREE_OPERATORS)[number],
  key: number,
): FilterTab[] {
  const row = { ...newFilter(parent), operator, value: String(key) };
  const [first, ...rest] = tabs.length > 0 ? tabs : [newTab()];
  return [{ ...first, enabled: true, filters: [...first.filters, row] }, ...rest];
}

/** Pure updates of the panel's tabs, for setState. */
export const tabsUpdates = {
  add:
    (tab: FilterTab): TabsUpdate =>
    (tabs) => [...tabs, tab],
  remove:
    (tabId: number): TabsUpdate =>
    (tabs) =>
      tabs.filter((t) => t.id !== tabId),
  toggle:
    (tabId: number): TabsUpdate =>
    (tabs) =>
      tabs.map((t) => (t.id === tabId ? { ...t, enabled: !t.enabled } : t)),
  addFilter: (tabId: number, row: FilterRow) => inTab(tabId, (filters) => [...filters, row]),
  changeFilter: (tabId: number, row: FilterRow) =>
    inTab(tabId, (filters) => filters.map((f) => (f.id === row.id ? row : f))),
  duplicateFilter: (tabId: number, rowId: number) =>
    inTab(tabId, (filters) =>
      filters.flatMap((f) => (f.id === rowId ? [f, { ...f, id: newId() }] : [f])),
    ),
  removeFilter: (tabId: number, rowId: number) =>
    inTab(tabId, (filters) => filters.filter((f) => f.id !== rowId)),
};
