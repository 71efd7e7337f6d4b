import { describe, expect, it } from "vitest";
import { attachmentName } from "./download.ts";

describe("attachmentName", () => {
  it("takes the server's file name", () => {
    expect(attachmentName('attachment; filename="country_problems.xlsx"')).toBe(
      "country_problems.xlsx",
    );
    expect(attachmentName("attachment; filename*=UTF-8''L%C3%A4nder.xlsx")).toBe("Länder.xlsx");
  });

  it("falls back to a timestamped name with the given prefix", () => {
    expect(attachmentName(null)).toMatch(/^Report_\d{4}-\d{2}-\d{2}_\d+-\d{2}-\d{2}\.xlsx$/);
    expect(attachmentName(null, "Problems")).toMatch(/^Problems_\d{4}-/);
  });
});
