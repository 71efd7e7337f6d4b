import type { WaitingCounts } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import {
  mineWaitingText,
  pendingLink,
  waitingForMeIn,
  waitingForMeText,
} from "./waiting-counts.ts";

const counts: WaitingCounts = [
  { context: "reference", uiName: "Reference Data", waitingForMe: 4, mineWaiting: 1 },
  { context: "Data Dictionary", uiName: "Data Dictionary", waitingForMe: 0, mineWaiting: 2 },
];

describe("waitingForMeIn", () => {
  it("reads the count of the chosen application", () => {
    expect(waitingForMeIn(counts, "reference")).toBe(4);
    expect(waitingForMeIn(counts, "Data Dictionary")).toBe(0);
  });

  it("is 0 with no application, an unknown one, or while the counts load", () => {
    expect(waitingForMeIn(counts, null)).toBe(0);
    expect(waitingForMeIn(counts, "sales")).toBe(0);
    expect(waitingForMeIn(undefined, "reference")).toBe(0);
  });
});

describe("waiting texts", () => {
  it("speak of one change in the singular", () => {
    expect(waitingForMeText(1)).toBe("1 change waits for your decision");
    expect(mineWaitingText(1)).toBe("1 of your changes waits for approval");
  });

  it("speak of none or several in the plural", () => {
    expect(waitingForMeText(0)).toBe("0 changes wait for your decision");
    expect(waitingForMeText(12)).toBe("12 changes wait for your decision");
    expect(mineWaitingText(3)).toBe("3 of your changes wait for approval");
  });
});

describe("pendingLink", () => {
  it("names the application in the query, encoded", () => {
    expect(pendingLink("reference")).toBe("/pending?context=reference");
    expect(pendingLink("Data Dictionary")).toBe("/pending?context=Data+Dictionary");
  });
});
