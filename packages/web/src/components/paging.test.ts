import { describe, expect, it } from "vitest";
import { pageCountOf, pageSeek, positionText, visiblePages } from "./paging.ts";

describe("visiblePages", () => {
  it("centres three buttons on the current page", () => {
    expect(visiblePages(5, 10, 3)).toEqual([4, 5, 6]);
  });

  it("never goes before the first or past the last page", () => {
    expect(visiblePages(1, 10, 3)).toEqual([1, 2, 3]);
    expect(visiblePages(10, 10, 3)).toEqual([8, 9, 10]);
  });

  it("shows fewer buttons when there are fewer pages", () => {
    expect(visiblePages(1, 2, 3)).toEqual([1, 2]);
    expect(visiblePages(1, 0, 3)).toEqual([1]);
  });
});

describe("pageCountOf", () => {
  it("rounds up and counts an empty list as one page", () => {
    expect(pageCountOf(179, 20)).toBe(9);
    expect(pageCountOf(0, 20)).toBe(1);
  });

  it("puts everything on one page for page size 0 (All)", () => {
    expect(pageCountOf(179, 0)).toBe(1);
  });
});

describe("positionText", () => {
  it("reads 'a - b of n results'", () => {
    expect(positionText(1, 20, 179)).toBe("1 - 20 of 179 results");
    expect(positionText(9, 20, 179)).toBe("161 - 179 of 179 results");
  });

  it("reads 'of about n results' for an estimate, to two significant figures", () => {
    expect(positionText(1, 20, 1_234_567, true)).toBe("1 - 20 of about 1.2 million results");
    expect(positionText(3, 20, 38_912, true)).toBe("41 - 60 of about 39,000 results");
    expect(positionText(1, 20, 249, true)).toBe("1 - 20 of about 250 results");
    expect(positionText(1, 20, 9_960_000, true)).toBe("1 - 20 of about 10 million results");
  });

  it("covers every row with page size 0 and reads 0 - 0 when empty", () => {
    expect(positionText(1, 0, 179)).toBe("1 - 179 of 179 results");
    expect(positionText(1, 20, 0)).toBe("0 - 0 of 0 results");
  });
});

describe("pageSeek", () => {
  const bounds = {
    first: { orderValues: ["Aruba"], entityKeyID: 7 },
    last: { orderValues: ["Chad"], entityKeyID: 3 },
  };

  it("reads next, previous and the buttons around the page from the rows shown", () => {
    expect(pageSeek(6, 5, 10, bounds)).toEqual({ after: bounds.last, skipPages: 0 });
    expect(pageSeek(4, 5, 10, bounds)).toEqual({ before: bounds.first, skipPages: 0 });
    expect(pageSeek(7, 5, 10, bounds)).toEqual({ after: bounds.last, skipPages: 1 });
    expect(pageSeek(2, 5, 10, bounds)).toEqual({ before: bounds.first, skipPages: 2 });
  });

  it("reads the last page from the end, known rows or not", () => {
    expect(pageSeek(10, 2, 10, undefined)).toEqual({ last: true });
  });

  it("goes by number to the first page, far pages, and while the page shown is not known", () => {
    expect(pageSeek(1, 3, 10, bounds)).toBeUndefined();
    expect(pageSeek(9, 5, 10, bounds)).toBeUndefined();
    expect(pageSeek(6, 5, 10, undefined)).toBeUndefined();
  });
});
