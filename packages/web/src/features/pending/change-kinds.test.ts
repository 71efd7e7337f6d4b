import type { CustomActionInfo } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import { changeDateText, countByKind, refusedKinds } from "./change-kinds.ts";

const verify: CustomActionInfo = {
  name: "approve_as_verified",
  uiName: "Approve as verified",
  onCreate: true,
  onUpdate: true,
  onDelete: false,
};

describe("refusedKinds", () => {
  it("allows a custom action only when every selected kind allows it", () => {
    expect(refusedKinds(verify, ["Create", "Update", "Add", "Change", "Amend"])).toEqual([]);
    expect(refusedKinds(verify, ["Delete", "Update", "Missing", "Delete"])).toEqual([
      "Missing",
      "Delete",
    ]);
  });

  it("checks new records against onCreate and edits against onUpdate", () => {
    const deletesOnly = { ...verify, onCreate: false, onUpdate: false, onDelete: true };
    expect(refusedKinds(deletesOnly, ["Add", "Amend", "Missing"])).toEqual(["Add", "Amend"]);
  });
});

describe("countByKind", () => {
  it("counts in the usual order and leaves out kinds with none", () => {
    const changes = [{ action: "Delete" }, { action: "Change" }, { action: "Delete" }] as const;
    expect(countByKind(changes)).toEqual([
      ["Change", 1],
      ["Delete", 2],
    ]);
  });
});

describe("changeDateText", () => {
  it("reads YYYY/MM/DD HH:mm:ss in local time", () => {
    const local = new Date(2026, 0, 2, 3, 4, 5);
    expect(changeDateText(local.toISOString())).toBe("2026/01/02 03:04:05");
  });
});
