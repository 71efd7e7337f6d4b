import { describe, expect, it } from "vitest";
import { SharedStrings } from "./shared-strings.ts";

describe("SharedStrings", () => {
  it("gives back every string as added, multi-byte text and empty strings included", () => {
    const table = new SharedStrings();
    const texts = ["", "Zürich", "東京都", "emoji 🧾 receipt", "plain"];
    for (const t of texts) table.add(t);
    expect(table.size).toBe(texts.length);
    expect(texts.map((_, i) => table.get(i))).toEqual(texts);
  });

  it("keeps strings whole across blocks and grows past its first index", () => {
    const table = new SharedStrings();
    // 40,000 strings of ~60 bytes fill more than two 1 MB blocks; a 1.5 MB string has its own.
    const texts = Array.from({ length: 40_000 }, (_, i) => `row ${i} ${"é".repeat(i % 50)}`);
    texts.splice(20_000, 0, "x".repeat(1_500_000));
    for (const t of texts) table.add(t);
    for (const i of [0, 1, 17_476, 17_477, 19_999, 20_000, 20_001, 40_000])
      expect(table.get(i)).toBe(texts[i]);
    expect(texts.every((t, i) => table.get(i) === t)).toBe(true);
  });

  it("answers undefined for an index a cell may name wrongly", () => {
    const table = new SharedStrings();
    table.add("only");
    for (const index of [-1, 1, 0.5, Number.NaN]) expect(table.get(index)).toBeUndefined();
  });
});
