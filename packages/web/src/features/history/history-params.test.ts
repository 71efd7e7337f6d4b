import { describe, expect, it } from "vitest";
import { asOfLink, compareEndParam, parseCompareEnd, uploadLabel } from "./history-params.ts";
import { momentText } from "./moment.ts";

describe("history parameters", () => {
  it("writes and reads back both kinds of compare end", () => {
    expect(compareEndParam(12)).toBe("upload:12");
    expect(parseCompareEnd("upload:12")).toBe(12);
    const moment = "2026-01-01T00:00:00.000Z";
    expect(compareEndParam(moment)).toBe(moment);
    expect(parseCompareEnd(moment)).toBe(moment);
  });

  it("ignores a malformed end", () => {
    expect(parseCompareEnd(null)).toBeNull();
    expect(parseCompareEnd("upload:")).toBeNull();
    expect(parseCompareEnd("upload:-3")).toBeNull();
    expect(parseCompareEnd("upload:1.5")).toBeNull();
    expect(parseCompareEnd("last tuesday")).toBeNull();
  });

  it("links to the explorer as of a moment", () => {
    expect(asOfLink("reference", "country", "2026-01-01T00:00:00.000Z")).toBe(
      "/explorer?context=reference&type=country&asOf=2026-01-01T00%3A00%3A00.000Z",
    );
    expect(asOfLink("Data Dictionary", "edition", "2026-01-01T00:00:00.000Z")).toBe(
      "/explorer?context=Data+Dictionary&type=edition&asOf=2026-01-01T00%3A00%3A00.000Z",
    );
  });

  it("names an approved upload by id, file and approval moment", () => {
    const approvedAt = "2026-03-01T10:00:00.000Z";
    expect(
      uploadLabel({
        uploadId: 12,
        fileName: "countries.xlsx",
        uploadedBy: "sam",
        uploadedAt: "2026-03-01T09:00:00.000Z",
        approvedAt,
      }),
    ).toBe(`#12 countries.xlsx (approved ${momentText(approvedAt)})`);
  });
});
