import { useState } from "react";
import type { PendingRow } from "./pending-rows.ts";
import {
  type ClickKeys,
  clickRow,
  NO_SELECTION,
  type RowSelection,
  selectAll,
} from "./selection.ts";

/**
 * The selected rows of the page on screen. A selection belongs to one list (`listKey`: filters,
 * sorting, page): it is dropped when the list changes, and rows that went away (decided by
 * someone) drop out of it when the list reloads.
 */
export function useRowSelection(rows: readonly PendingRow[], listKey: string) {
  const [state, setState] = useState<{ key: string; selection: RowSelection }>({
    key: listKey,
    selection: NO_SELECTION,
  });
  const selection = state.key === listKey ? state.selection : NO_SELECTION;
  const order = rows.map((r) => r.change.entityEventID);
  const set = (next: RowSelection) => setState({ key: listKey, selection: next });
  return {
    ids: selection.ids,
    rows: rows.filter((r) => selection.ids.has(r.change.entityEventID)),
    click: (eventId: number, keys: ClickKeys) => set(clickRow(selection, order, eventId, keys)),
    selectPage: () => set(selectAll(order)),
    clear: () => set(NO_SELECTION),
  };
}
