import { describe, expect, it } from "vitest";
import { valueRange } from "./profile.ts";

describe("valueRange", () => {
  it("orders numbers as numbers, 'NaN' above all", () => {
    expect(valueRange("integer", ["9", "10", "-2", null])).toEqual({ min: "-2", max: "10" });
    expect(valueRange("double precision", ["1.5", "NaN", "-Infinity"])).toEqual({
      min: "-Infinity",
      max: "NaN",
    });
    expect(valueRange("numeric(10,2)", ["100.00", "20.50"])).toEqual({
      min: "20.50",
      max: "100.00",
    });
  });

  it("orders other types by their text", () => {
    expect(valueRange("text", ["Bob", "Cy", "Ann"])).toEqual({ min: "Ann", max: "Cy" });
    expect(valueRange("date", ["2024-03-01", "2023-12-31"])).toEqual({
      min: "2023-12-31",
      max: "2024-03-01",
    });
  });

  it("knows nothing without values", () => {
    expect(valueRange("text", [null, null])).toEqual({ min: null, max: null });
  });
});
