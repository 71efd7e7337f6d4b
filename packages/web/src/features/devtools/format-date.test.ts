import { describe, expect, it } from "vitest";
import { DEFAULT_DATE_FORMAT, formatDateTime } from "./format-date.ts";

describe("formatDateTime", () => {
  it("formats with SPEC's example format", () => {
    expect(formatDateTime("2024-03-05", "07:08:09", DEFAULT_DATE_FORMAT)).toBe(
      "2024/03/05 07:08:09",
    );
  });

  it("reads a time without seconds and a missing time as midnight", () => {
    expect(formatDateTime("2024-03-05", "17:30", "H-mm-ss")).toBe("17-30-00");
    expect(formatDateTime("2024-03-05", "", "HH:mm")).toBe("00:00");
  });

  it("keeps bracketed text and the export timestamp form", () => {
    expect(formatDateTime("2024-12-31", "23:59:58", "[Report]_YYYY-MM-DD_H-mm-ss")).toBe(
      "Report_2024-12-31_23-59-58",
    );
  });

  it("answers undefined without a valid date", () => {
    expect(formatDateTime("", "10:00", DEFAULT_DATE_FORMAT)).toBeUndefined();
    expect(formatDateTime("2024-13-45", "10:00", DEFAULT_DATE_FORMAT)).toBeUndefined();
  });
});
