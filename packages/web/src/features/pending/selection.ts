/** The selected rows of a page and the row a shift-click range starts from. */
export interface RowSelection {
  ids: ReadonlySet<number>;
  anchor: number | null;
}

export const NO_SELECTION: RowSelection = { ids: new Set(), anchor: null };

/** The modifier keys of a click: shift for a range, ctrl or cmd (`toggle`) for one more or less. */
export interface ClickKeys {
  shift: boolean;
  toggle: boolean;
}

/**
 * The selection after a click on row `id` of a page listed in `order`: a plain click selects
 * that row alone, ctrl/cmd-click adds or removes it, shift-click selects the rows from the
 * anchor to it (added to the selection with ctrl/cmd held as well).
 */
export function clickRow(
  selection: RowSelection,
  order: readonly number[],
  id: number,
  keys: ClickKeys,
): RowSelection {
  const from = selection.anchor === null ? -1 : order.indexOf(selection.anchor);
  const to = order.indexOf(id);
  if (keys.shift && from >= 0 && to >= 0) {
    const range = order.slice(Math.min(from, to), Math.max(from, to) + 1);
    const ids = keys.toggle ? new Set([...selection.ids, ...range]) : new Set(range);
    return { ids, anchor: selection.anchor };
  }
  if (keys.toggle) {
    const ids = new Set(selection.ids);
    if (ids.has(id)) ids.delete(id);
    else ids.add(id);
    return { ids, anchor: id };
  }
  return { ids: new Set([id]), anchor: id };
}

/** Every row of the page. */
export function selectAll(order: readonly number[]): RowSelection {
  return { ids: new Set(order), anchor: order[0] ?? null };
}
