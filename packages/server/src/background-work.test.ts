import { describe, expect, it } from "vitest";
import { BackgroundWork } from "./background-work.ts";

describe("BackgroundWork", () => {
  it("settles once the work added so far has, passing failures on", async () => {
    const background = new BackgroundWork();
    const order: string[] = [];
    let finish: (() => void) | undefined;
    background.add(
      new Promise<void>((resolve) => (finish = resolve)).then(() => order.push("done")),
      () => order.push("never"),
    );
    background.add(Promise.reject(new Error("no index")), (e) =>
      order.push(`failed: ${(e as Error).message}`),
    );
    const settled = background.settled().then(() => order.push("settled"));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(order).toEqual(["failed: no index"]);
    finish?.();
    await settled;
    expect(order).toEqual(["failed: no index", "done", "settled"]);
  });

  it("settles at once with nothing running", async () => {
    await expect(new BackgroundWork().settled()).resolves.toBeUndefined();
  });
});
