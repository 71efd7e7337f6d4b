import type { RuleBreach } from "@ledgerline/contract";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CellBreachMark, cellBreaches } from "./cell-breaches.tsx";

const breach = (attribute: string, severity: RuleBreach["severity"], message: string) => ({
  attribute,
  rule: `${attribute} ${message}`,
  message,
  severity,
});

describe("cellBreaches", () => {
  it("is null for a value that breaks nothing, or a record listed without its breaches", () => {
    expect(cellBreaches(undefined, "iso2")).toBeNull();
    expect(cellBreaches([breach("name", "error", "Too long")], "iso2")).toBeNull();
  });

  it("takes the value's own breaches, each message once, an error outweighing warnings", () => {
    const breaches = [
      breach("iso2", "warning", "Two capital letters"),
      breach("name", "error", "Too long"),
      breach("iso2", "warning", "Two capital letters"),
    ];
    expect(cellBreaches(breaches, "iso2")).toEqual({
      severity: "warning",
      messages: ["Two capital letters"],
    });
    const worse = [...breaches, breach("iso2", "error", "Not unique")];
    expect(cellBreaches(worse, "iso2")).toEqual({
      severity: "error",
      messages: ["Two capital letters", "Not unique"],
    });
  });
});

describe("CellBreachMark", () => {
  it("names its severity and messages for assistive technology", () => {
    const html = renderToStaticMarkup(
      createElement(CellBreachMark, {
        id: "rule-breaches-1-iso2",
        breaches: { severity: "error", messages: ["Two capital letters", "Not unique"] },
      }),
    );
    expect(html).toContain('aria-label="Breaks a rule: Two capital letters; Not unique"');
    expect(html).toContain('data-severity="error"');
    expect(html).toContain("bi-x-octagon-fill");
  });
});
