import { describe, expect, it } from "vitest";
import type { Attribute } from "../model/model.ts";
import { convertValue, textProblem } from "./values.ts";

const attribute = (over: Partial<Attribute>): Attribute => ({
  name: "a",
  uiName: "A",
  uiDescription: "",
  uiSequence: 1,
  dataType: "String",
  nullable: false,
  identity: false,
  editable: true,
  filter: false,
  formula: "",
  generated: false,
  generator: undefined,
  referencedEntityType: undefined,
  default: undefined,
  format: undefined,
  rules: [],
  ...over,
});

describe("value conversion", () => {
  it("checks a declared cron format and leaves other text alone", () => {
    const cron = attribute({ format: "cron" });
    expect(convertValue(cron, "*/5 * * * *")).toEqual({ ok: true, value: "*/5 * * * *" });
    expect(convertValue(cron, "every day")).toEqual({
      ok: false,
      reason: '"every day" is not a valid cron string (a cron expression has 5 or 6 fields, not 2)',
    });
    expect(textProblem(cron, "61 * * * *")).toBe(
      '"61 * * * *" is not a valid cron string (CronPattern: Invalid value for minute: 61)',
    );
    expect(convertValue(attribute({}), "every day")).toEqual({ ok: true, value: "every day" });
    expect(textProblem(attribute({}), "every day")).toBeUndefined();
  });

  it("refuses a text past 1,200 bytes where an index holds it: a key, a filterable or a unique text", () => {
    const long = "x".repeat(1201);
    for (const over of [{ identity: true }, { filter: true }]) {
      expect(textProblem(attribute(over), long)).toBe(
        "a text of 1,201 bytes, longer than the 1,200 a key or filterable attribute holds",
      );
    }
    const unique = attribute({
      rules: [{ kind: "unique", id: "unique", message: "taken", severity: "error" }],
    });
    expect(textProblem(unique, long)).toBeDefined();
    expect(textProblem(attribute({ filter: true }), "x".repeat(1200))).toBeUndefined();
    expect(textProblem(attribute({}), "x".repeat(100_000))).toBeUndefined();
  });

  it("answers no value for empty text of a nullable attribute, before any format", () => {
    const cron = attribute({ format: "cron", nullable: true });
    expect(convertValue(cron, "  ")).toEqual({ ok: true, value: null });
    expect(convertValue(attribute({ format: "cron" }), null)).toEqual({
      ok: false,
      reason: "a value is required",
    });
  });
});
