import { describe, expect, it } from "vitest";
import { clickRow, NO_SELECTION, type RowSelection, selectAll } from "./selection.ts";

const order = [11, 12, 13, 14, 15];
const plain = { shift: false, toggle: false };
const shift = { shift: true, toggle: false };
const toggle = { shift: false, toggle: true };
const ids = (selection: RowSelection) => [...selection.ids].sort();

describe("clickRow", () => {
  it("selects the clicked row alone on a plain click", () => {
    const first = clickRow(NO_SELECTION, order, 12, plain);
    const second = clickRow(clickRow(first, order, 14, toggle), order, 13, plain);
    expect(ids(second)).toEqual([13]);
    expect(second.anchor).toBe(13);
  });

  it("adds and removes a row with ctrl or cmd held", () => {
    const two = clickRow(clickRow(NO_SELECTION, order, 12, plain), order, 15, toggle);
    expect(ids(two)).toEqual([12, 15]);
    expect(ids(clickRow(two, order, 12, toggle))).toEqual([15]);
  });

  it("selects a range from the anchor with shift, either way", () => {
    const anchored = clickRow(NO_SELECTION, order, 12, plain);
    expect(ids(clickRow(anchored, order, 14, shift))).toEqual([12, 13, 14]);
    const back = clickRow(clickRow(NO_SELECTION, order, 15, plain), order, 13, shift);
    expect(ids(back)).toEqual([13, 14, 15]);
    // The anchor stays, so a second shift-click moves the end of the range.
    expect(ids(clickRow(back, order, 14, shift))).toEqual([14, 15]);
  });

  it("adds a range to the selection with shift and ctrl held", () => {
    const start = clickRow(clickRow(NO_SELECTION, order, 11, plain), order, 14, toggle);
    expect(ids(clickRow(start, order, 15, { shift: true, toggle: true }))).toEqual([11, 14, 15]);
  });

  it("treats shift-click without an anchor on the page as a plain click", () => {
    expect(ids(clickRow(NO_SELECTION, order, 13, shift))).toEqual([13]);
    const gone = { ids: new Set([99]), anchor: 99 };
    expect(ids(clickRow(gone, order, 13, shift))).toEqual([13]);
  });
});

describe("selectAll", () => {
  it("selects every row of the page", () => {
    expect(ids(selectAll(order))).toEqual(order);
    expect(selectAll([]).anchor).toBeNull();
  });
});
