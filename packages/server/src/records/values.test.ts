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
  searchable: false,
  formula: "",
  generated: false,
  generator: undefined,
  referencedEntityType: undefined,
  default: undefined,
  parent: false,
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

  it("refuses an indexed text its index cannot hold even compressed, and takes long prose", () => {
    let seed = 7;
    const noise = Array.from({ length: 4000 }, () => {
      seed = (seed * 48271) % 2147483647;
      return String.fromCharCode(33 + (seed % 90));
    }).join("");
    expect(textProblem(attribute({ filter: true }), noise)).toMatch(
      /^too long to be indexed: about [\d,]+ bytes once compressed, where an index entry holds 1,340 of a filterable text$/,
    );
    expect(textProblem(attribute({ identity: true }), noise)).toMatch(
      /holds 2,680 of a key or unique text$/,
    );
    expect(textProblem(attribute({}), noise)).toBeUndefined();
    const prose = "A long comment of a table, as catalogs hold them. ".repeat(200);
    expect(textProblem(attribute({ filter: true }), prose)).toBeUndefined();
    // Hex digits: deflate's codes would pack them into half, PostgreSQL's pglz not at all.
    const hex = Array.from({ length: 2000 }, () => {
      seed = (seed * 48271) % 2147483647;
      return (seed % 16).toString(16);
    }).join("");
    expect(textProblem(attribute({ filter: true }), hex)).toBe(
      "too long to be indexed: about 2,000 bytes once compressed, where an index entry holds 1,340 of a filterable text",
    );
  });

  it("refuses with the first error rule in declared order, past warnings", () => {
    const rule = (pattern: string, message: string, severity: "error" | "warning" = "error") => ({
      kind: "pattern" as const,
      pattern,
      id: pattern,
      message,
      severity,
    });
    const attr = attribute({
      rules: [rule("x.*", "starts with x", "warning"), rule("a.*", "first"), rule(".*c", "second")],
    });
    expect(convertValue(attr, "zzz")).toEqual({ ok: false, reason: "first" });
    expect(convertValue(attr, "abz")).toEqual({ ok: false, reason: "second" });
    expect(convertValue(attr, "abc")).toEqual({ ok: true, value: "abc" });
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
