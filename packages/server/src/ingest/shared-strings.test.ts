import { describe, expect, it } from "vitest";
import { SharedStrings } from "./shared-strings.ts";

const ROOMY = 64 * 1024 * 1024;

describe("SharedStrings", () => {
  it("gives back every string as added, multi-byte text and empty strings included", () => {
    const table = new SharedStrings(ROOMY);
    const texts = ["", "Zürich", "東京都", "emoji 🧾 receipt", "plain"];
    for (const t of texts) table.add(t);
    expect(table.size).toBe(texts.length);
    expect(texts.map((_, i) => table.get(i))).toEqual(texts);
  });

  it("keeps strings whole across blocks and grows past its first index", () => {
    const table = new SharedStrings(ROOMY);
    // 40,000 strings of ~60 bytes fill more than two 1 MB blocks; a 1.5 MB string has its own.
    const texts = Array.from({ length: 40_000 }, (_, i) => `row ${i} ${"é".repeat(i % 50)}`);
    texts.splice(20_000, 0, "x".repeat(1_500_000));
    for (const t of texts) table.add(t);
    for (const i of [0, 1, 17_476, 17_477, 19_999, 20_000, 20_001, 40_000])
      expect(table.get(i)).toBe(texts[i]);
    expect(texts.every((t, i) => table.get(i) === t)).toBe(true);
  });

  it("answers undefined for an index a cell may name wrongly", () => {
    const table = new SharedStrings(ROOMY);
    table.add("only");
    for (const index of [-1, 1, 0.5, Number.NaN]) expect(table.get(index)).toBeUndefined();
  });

  it("refuses to hold more than its budget, naming it, before allocating past it", () => {
    const table = new SharedStrings(4 * 1024 * 1024);
    // Empty strings take no text, only index: 12 bytes each, so 4 MB holds about 350,000.
    expect(() => {
      for (let i = 0; i < 1_000_000; i++) table.add("");
    }).toThrow(
      /^The workbook's shared strings take more than 4 MB once read \(262,144 strings so far\), the most the reader may hold; it was refused$/,
    );
    const text = new SharedStrings(4 * 1024 * 1024);
    expect(() => {
      for (let i = 0; i < 10; i++) text.add("x".repeat(1_000_000));
    }).toThrow(/more than 4 MB once read \(3 strings so far\)/);
  });
});
