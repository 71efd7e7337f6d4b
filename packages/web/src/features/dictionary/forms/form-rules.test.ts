import { describe, expect, it } from "vitest";
import {
  type EnvironmentValues,
  environmentErrors,
  identityKey,
  isValid,
  type SourceValues,
  sourceErrors,
} from "./form-rules.ts";

const environment = (over: Partial<EnvironmentValues> = {}): EnvironmentValues => ({
  name: "warehouse",
  description: "The reporting warehouse",
  technology: "postgres",
  connectionfile: "warehouse.conf",
  ...over,
});

const source = (over: Partial<SourceValues> = {}): SourceValues => ({
  application: "1",
  applicationaspect: "2",
  systemenvironment: "3",
  name: "Warehouse catalog",
  description: "Tables of the warehouse",
  importfrequency: "0 3 * * *",
  enableschedule: false,
  ...over,
});

describe("system environment rules", () => {
  it("accepts a complete new environment with a free name", () => {
    expect(environmentErrors(environment(), new Set(["other"]))).toEqual({});
  });

  it("refuses a name another system environment has, after trimming", () => {
    const errors = environmentErrors(environment({ name: " warehouse " }), new Set(["warehouse"]));
    expect(errors.name).toBe("A system environment with that name already exists");
  });

  it("asks for every field", () => {
    const errors = environmentErrors(
      { name: " ", description: "", technology: "", connectionfile: "" },
      new Set(),
    );
    expect(Object.keys(errors).sort()).toEqual([
      "connectionfile",
      "description",
      "name",
      "technology",
    ]);
  });

  it("does not check the name when editing (it cannot change)", () => {
    expect(isValid(environmentErrors(environment({ name: "" }), null))).toBe(true);
  });
});

describe("metadata source rules", () => {
  it("accepts a new source with a free combination and a valid cron", () => {
    expect(
      sourceErrors(source(), new Set([identityKey(1, 2, 4)]), { valid: true, next: [] }),
    ).toEqual({});
  });

  it("refuses a combination that exists already", () => {
    const errors = sourceErrors(source(), new Set([identityKey(1, 2, 3)]), {
      valid: true,
      next: [],
    });
    expect(errors.identity).toBe(
      "a metadata source with this set of identifying attributes already exists",
    );
  });

  it("shows the server's cron message and waits while it is asked", () => {
    expect(
      sourceErrors(source(), new Set(), { valid: false, message: "bad" }).importfrequency,
    ).toBe("not a valid cron string (bad)");
    expect(isValid(sourceErrors(source(), new Set(), undefined))).toBe(false);
  });

  it("needs the three references, a name and a description on create", () => {
    const errors = sourceErrors(
      source({ application: "", systemenvironment: "", name: "", description: " " }),
      new Set(),
      { valid: true, next: [] },
    );
    expect(Object.keys(errors).sort()).toEqual([
      "application",
      "description",
      "name",
      "systemenvironment",
    ]);
  });

  it("leaves the references alone when editing", () => {
    expect(sourceErrors(source({ application: "" }), null, { valid: true, next: [] })).toEqual({});
  });
});
