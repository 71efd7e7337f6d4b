import { describe, expect, it } from "vitest";
import { frameCounter } from "./frame-limit.ts";

describe("the frame limit of a publish socket", () => {
  it("takes 10 frames in any 10 seconds, and more once the oldest are 10 seconds old", () => {
    let now = 0;
    const withinLimit = frameCounter({ frames: 10, windowMs: 10_000 }, () => now);
    for (let i = 0; i < 10; i += 1) {
      expect(withinLimit(), `frame ${i + 1}`).toBe(true);
      now += 500;
    }
    expect(withinLimit()).toBe(false);
    now = 9_999;
    expect(withinLimit()).toBe(false);
    // The first frame came at 0: at 10 s it no longer counts, the second (at 0.5 s) still does.
    now = 10_000;
    expect(withinLimit()).toBe(true);
    expect(withinLimit()).toBe(false);
  });
});
