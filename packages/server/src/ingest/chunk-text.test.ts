import { describe, expect, it } from "vitest";
import { withCopyText, withoutRowNumbers } from "./chunk-text.ts";
import type { RowChunk } from "./rows.ts";

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

describe("a chunk's COPY text made by the parser thread", () => {
  const chunk: RowChunk = {
    rowNumbers: [2, 3, 5],
    values: ["A-1", "tab\there", 1.5, "B-2", "bad", null, "C-3", "line\nbreak ü", true],
    failed: [{ rowNumber: 3, cells: ["B-2", "bad", null], problems: [] }],
    ruleBreaking: [
      {
        rowNumber: 5,
        cells: ["C-3", "line\nbreak ü", true],
        problems: [{ column: "B", message: "too long", attributes: ["b"] }],
      },
    ],
  };

  it("holds the passed rows (rule-breaking ones too), each led by its row number, values escaped, and no values beside", () => {
    const sent = withCopyText(chunk, 3);
    expect(sent.values).toEqual([]);
    expect(sent.rowNumbers).toEqual([2, 3, 5]);
    expect(sent.failed).toBe(chunk.failed);
    expect(sent.ruleBreaking).toBe(chunk.ruleBreaking);
    expect(text(sent.copyText as Uint8Array)).toBe(
      "2\tA-1\ttab\\there\t1.5\n5\tC-3\tline\\nbreak ü\tt\n",
    );
  });

  it("loses only the row numbers for a first load's COPY", () => {
    const sent = withCopyText(chunk, 3);
    expect(text(withoutRowNumbers(sent.copyText as Uint8Array))).toBe(
      "A-1\ttab\\there\t1.5\nC-3\tline\\nbreak ü\tt\n",
    );
    expect(text(withoutRowNumbers(new Uint8Array(0)))).toBe("");
  });
});
