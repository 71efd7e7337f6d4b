import type { PendingSummaryRow } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { awaitingApproval } from "./awaiting-approval.ts";

const counts = (n: Partial<PendingSummaryRow["counts"]>): PendingSummaryRow["counts"] => ({
  Add: 0,
  Change: 0,
  Missing: 0,
  Create: 0,
  Update: 0,
  Amend: 0,
  Delete: 0,
  ...n,
});

const summary: PendingSummaryRow[] = [
  { entityType: "currency", uiName: "Currency", counts: counts({ Change: 2, Missing: 1 }) },
  { entityType: "country", uiName: "Country", counts: counts({ Create: 1, Delete: 3 }) },
];

describe("awaitingApproval", () => {
  it("adds up every kind of change of the types the user may approve", () => {
    const types = [
      { name: "currency", canapprove: true },
      { name: "country", canapprove: false },
    ];
    expect(awaitingApproval(summary, types)).toBe(3);
  });

  it("is 0 without the approve right", () => {
    expect(awaitingApproval(summary, [{ name: "country", canapprove: false }])).toBe(0);
  });
});
