import type { PendingChangeSet } from "@ledgerline/contract";
import { describe, expect, it } from "vitest";
import {
  changeSetLabel,
  changeSetQuery,
  changeSetValue,
  decisionCounts,
  parseChangeSetValue,
} from "./change-sets.ts";
import type { Decision } from "./use-decisions.ts";

const upload: PendingChangeSet = {
  kind: "upload",
  id: 7,
  name: "countries.xlsx",
  createdBy: "steward",
  createdAt: new Date(2026, 2, 4, 9, 8, 7).toISOString(),
  pending: 5,
  counts: { Add: 2, Change: 0, Missing: 3, Create: 0, Update: 0, Amend: 0, Delete: 0 },
};

describe("changeSetLabel", () => {
  it("names the file, who uploaded it, when (local time) and how many changes wait", () => {
    expect(changeSetLabel(upload)).toBe(
      "countries.xlsx — steward, 2026/03/04 09:08:07 (5 pending)",
    );
  });

  it("names a metadata source's imports as such", () => {
    expect(changeSetLabel({ ...upload, kind: "import", name: "Sales" })).toBe(
      "Metadata import: Sales — steward, 2026/03/04 09:08:07 (5 pending)",
    );
  });
});

describe("parseChangeSetValue", () => {
  it("reads the value a select option (and an e-mail link) carries", () => {
    expect(parseChangeSetValue("upload:12")).toEqual({ kind: "upload", id: 12 });
    expect(parseChangeSetValue("import:5")).toEqual({ kind: "import", id: 5 });
    expect(parseChangeSetValue(changeSetValue({ kind: "upload", id: 7 }))).toEqual({
      kind: "upload",
      id: 7,
    });
  });

  it("ignores anything else, so a mangled link shows every change", () => {
    for (const text of [null, "", "upload", "upload:", "upload:0", "upload:-3", "upload:1.5"]) {
      expect(parseChangeSetValue(text)).toBeNull();
    }
    for (const text of [
      "web:3",
      "UPLOAD:3",
      " upload:3",
      "upload:3x",
      "upload:99999999999999999",
    ]) {
      expect(parseChangeSetValue(text)).toBeNull();
    }
  });
});

describe("changeSetQuery", () => {
  it("filters by upload or by metadata source, or not at all", () => {
    expect(changeSetQuery(null)).toEqual({});
    expect(changeSetQuery({ kind: "upload", id: 7 })).toEqual({ pendingUploadId: 7 });
    expect(changeSetQuery({ kind: "import", id: 3 })).toEqual({ pendingImportSourceId: 3 });
  });
});

describe("decisionCounts", () => {
  it("counts a whole upload from its summary, every change being the uploader's", () => {
    const decision: Decision = { verb: "approve", scope: "all", changes: [], upload };
    expect(decisionCounts(decision, "approver")).toEqual({
      kinds: [
        ["Add", 2],
        ["Missing", 3],
      ],
      total: 5,
      own: 0,
    });
    expect(decisionCounts(decision, "steward").own).toBe(5);
  });

  it("counts listed changes one by one", () => {
    const changes = [
      { entityEventID: 1, action: "Update", createdBy: "ann" },
      { entityEventID: 2, action: "Create", createdBy: "bob" },
      { entityEventID: 3, action: "Update", createdBy: "bob" },
    ] as const;
    expect(
      decisionCounts({ verb: "reject", scope: "selected", changes: [...changes] }, "bob"),
    ).toEqual({
      kinds: [
        ["Create", 1],
        ["Update", 2],
      ],
      total: 3,
      own: 2,
    });
  });
});
