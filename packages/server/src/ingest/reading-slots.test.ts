import { describe, expect, it } from "vitest";
import { inReadingSlot, READING_SLOTS } from "./reading-slots.ts";

describe("inReadingSlot", () => {
  it("runs READING_SLOTS ingests at once; one more answers undefined unrun until a slot frees", async () => {
    const ends: (() => void)[] = [];
    const running = Array.from({ length: READING_SLOTS }, (_, i) =>
      inReadingSlot(() => new Promise<number>((resolve) => ends.push(() => resolve(i)))),
    );
    let ran = false;
    const refused = await inReadingSlot(async () => {
      ran = true;
      return "ran";
    });
    expect([refused, ran]).toEqual([undefined, false]);
    ends[0]();
    expect(await running[0]).toBe(0);
    expect(await inReadingSlot(async () => "ran")).toBe("ran");
    for (const end of ends.slice(1)) end();
    expect(await Promise.all(running)).toEqual([...Array(READING_SLOTS).keys()]);
  });

  it("frees its slot when the ingest fails", async () => {
    for (let i = 0; i <= READING_SLOTS; i++)
      await expect(inReadingSlot(() => Promise.reject(new Error("refused")))).rejects.toThrow(
        "refused",
      );
    expect(await inReadingSlot(async () => "ran")).toBe("ran");
  });
});
