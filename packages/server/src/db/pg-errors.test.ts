import { describe, expect, it } from "vitest";
import { indexEntryTooLong } from "./pg-errors.ts";

const databaseError = (code: string, message: string) =>
  Object.assign(new Error(message), { code });

describe("a value too large for an index entry", () => {
  it("names the attribute, or the key, its index's name gives", () => {
    expect(
      indexEntryTooLong(
        databaseError(
          "54000",
          'index row size 5744 exceeds btree version 4 maximum 2704 for index "country__identity"',
        ),
      ),
    ).toBe(
      "The key is too long to be indexed: an index entry holds at most 2,704 bytes once compressed; nothing was changed",
    );
    expect(
      indexEntryTooLong(
        databaseError(
          "54000",
          'index row size 3000 exceeds btree version 4 maximum 2704 for index "item__name__prefix"',
        ),
      ),
    ).toMatch(/^The value of 'name' is too long to be indexed/);
    expect(
      indexEntryTooLong(
        databaseError("54000", "index row requires 30016 bytes, maximum size is 8191"),
      ),
    ).toMatch(/^A key, filterable or unique text is too long to be indexed/);
  });

  it("leaves every other error alone", () => {
    expect(indexEntryTooLong(databaseError("54000", "row is too big: size 9000"))).toBeUndefined();
    expect(indexEntryTooLong(databaseError("23505", "duplicate key value"))).toBeUndefined();
    expect(indexEntryTooLong(new Error("index row size"))).toBeUndefined();
  });
});
