import { describe, expect, it } from "vitest";
import { isDateFormatCode, isDateSerial, serialToDate } from "./xlsx-reader.ts";

describe("serialToDate", () => {
  it("agrees with the calendar for every day from 1900 to 9999", () => {
    const epoch = Date.UTC(1899, 11, 30);
    const wrong: number[] = [];
    for (let serial = 1; serial <= 2_958_465; serial++) {
      const expected = new Date(epoch + serial * 86_400_000).toISOString().slice(0, 10);
      if (serialToDate(serial) !== expected) wrong.push(serial);
    }
    expect(wrong).toEqual([]);
  });

  it("knows which serials Excel shows as dates", () => {
    expect([0, 1, 2_958_465, 2_958_465.5, 2_958_466].map(isDateSerial)).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
  });

  it("drops the time of day", () => {
    expect(serialToDate(45_292.75)).toBe("2024-01-01");
    expect(serialToDate(60)).toBe("1900-02-28");
  });
});

describe("isDateFormatCode", () => {
  it("sees dates in formats that show a day, month or year outside quotes and brackets", () => {
    expect(isDateFormatCode("dd/mm/yyyy")).toBe(true);
    expect(isDateFormatCode("[$-409]mmm d, yyyy")).toBe(true);
    expect(isDateFormatCode('0.00 "days"')).toBe(false);
    expect(isDateFormatCode("[Red]#,##0")).toBe(false);
  });
});
