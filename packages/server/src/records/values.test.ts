import { describe, expect, it } from "vitest";
import { convertCell } from "../ingest/row-converter.ts";
import type { Attribute } from "../model/model.ts";
import { convertValue, isIsoDate } from "./values.ts";

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
  ...over,
});

describe("value conversion", () => {
  it("checks a declared cron format on saves and uploads alike", () => {
    const cron = attribute({ format: "cron" });
    expect(convertValue(cron, "*/5 * * * *")).toEqual({ ok: true, value: "*/5 * * * *" });
    expect(convertValue(cron, "every day")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^"every day" is not a valid cron string \(/),
    });
    expect(convertCell(cron, "61 * * * *")).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/is not a valid cron string/),
    });
    expect(convertValue(attribute({}), "every day")).toEqual({ ok: true, value: "every day" });
  });

  it("converts numbers, booleans, dates and references, refusing what does not fit", () => {
    expect(convertValue(attribute({ dataType: "Number" }), " 12.5 ")).toEqual({
      ok: true,
      value: 12.5,
    });
    expect(convertValue(attribute({ dataType: "Boolean" }), "false")).toEqual({
      ok: true,
      value: false,
    });
    expect(convertValue(attribute({ dataType: "Date" }), "2024-02-30").ok).toBe(false);
    expect(convertValue(attribute({ dataType: "Reference" }), "7")).toEqual({ ok: true, value: 7 });
    expect(convertValue(attribute({ nullable: true }), "  ")).toEqual({ ok: true, value: null });
    expect(convertValue(attribute({}), null)).toEqual({ ok: false, reason: "a value is required" });
    expect([isIsoDate("2024-02-29"), isIsoDate("2023-02-29")]).toEqual([true, false]);
  });
});
