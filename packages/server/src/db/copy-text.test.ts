import { describe, expect, it } from "vitest";
import { copyText, flatCopyData } from "./copy-text.ts";

describe("copyText", () => {
  it("writes one tab-separated line per row, nulls as \\N and booleans as t / f", () => {
    expect(
      copyText([
        [1, "Euro", true, null],
        [2.5, "", false, "2024-01-31"],
      ]),
    ).toBe("1\tEuro\tt\t\\N\n2.5\t\tf\t2024-01-31\n");
  });

  it("escapes backslashes, tabs and line breaks, so a text cannot end its field or row", () => {
    expect(copyText([["a\\b\tc\nd\re", "\\N"]])).toBe("a\\\\b\\tc\\nd\\re\t\\\\N\n");
  });

  it("refuses numbers no column can hold", () => {
    expect(() => copyText([[Number.NaN]])).toThrow("NaN cannot be stored as a number");
    expect(() => copyText([[Number.POSITIVE_INFINITY]])).toThrow("Infinity");
  });
});

describe("flatCopyData", () => {
  it("writes `width` values per line, each line led by its row number when given", () => {
    const values = ["EUR", 2, null, "a\tb", true, 0];
    expect(flatCopyData(values, 3)).toEqual({ text: "EUR\t2\t\\N\na\\tb\tt\t0\n", rows: 2 });
    expect(flatCopyData(values, 3, [7, 9])).toEqual({
      text: "7\tEUR\t2\t\\N\n9\ta\\tb\tt\t0\n",
      rows: 2,
    });
  });

  it("writes nothing for no values", () => {
    expect(flatCopyData([], 3)).toEqual({ text: "", rows: 0 });
  });
});
