import { describe, expect, it } from "vitest";
import { checkTokenForm, initialTokenForm, type TokenFormValues } from "./token-form.ts";

const form = (overrides: Partial<TokenFormValues> = {}): TokenFormValues => ({
  name: "nightly export",
  scope: "read",
  expiresInDays: "30",
  ...overrides,
});

describe("initialTokenForm", () => {
  it("offers a read token for 30 days", () => {
    expect(initialTokenForm(90)).toEqual({ name: "", scope: "read", expiresInDays: "30" });
  });

  it("offers the longest lifetime allowed when the server allows less than 30 days", () => {
    expect(initialTokenForm(7).expiresInDays).toBe("7");
  });
});

describe("checkTokenForm", () => {
  it("makes the request from valid values, the name trimmed and the days a number", () => {
    const check = checkTokenForm(form({ name: "  ci  ", scope: "write", expiresInDays: "90" }), 90);
    expect(check).toEqual({
      request: { name: "ci", scope: "write", expiresInDays: 90 },
      problems: null,
    });
  });

  it("asks for a name when it is empty or only spaces", () => {
    expect(checkTokenForm(form({ name: "   " }), 90).problems).toEqual({
      name: "required field",
    });
  });

  it("refuses a name longer than 100 characters", () => {
    expect(checkTokenForm(form({ name: "x".repeat(101) }), 90).problems).toEqual({
      name: "at most 100 characters",
    });
  });

  it("refuses a lifetime beyond the server's longest with the hint's text", () => {
    expect(checkTokenForm(form({ expiresInDays: "91" }), 90).problems).toEqual({
      expiresInDays: "at most 90 days",
    });
  });

  it("refuses an empty, zero, negative or fractional lifetime", () => {
    const days = (expiresInDays: string) =>
      checkTokenForm(form({ expiresInDays }), 90).problems?.expiresInDays;
    expect(days("")).toBe("required field");
    expect(days("0")).toBe("at least 1 day");
    expect(days("-3")).toBe("at least 1 day");
    expect(days("1.5")).toBe("whole days only");
  });

  it("reports every field's problem at once", () => {
    const check = checkTokenForm(form({ name: "", expiresInDays: "0" }), 90);
    expect(check.problems).toEqual({ name: "required field", expiresInDays: "at least 1 day" });
  });
});
