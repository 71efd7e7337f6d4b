import type { AttributeInfo, RuleBreach } from "@ledgerline/contract";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RuleBreachBadge } from "./rule-breach-badge.tsx";

const population: AttributeInfo = {
  name: "population",
  uiName: "Population",
  uiDescription: "",
  uiSequence: 1,
  dataType: "Number",
  nullable: true,
  identity: false,
  generated: false,
  formula: "",
  editable: true,
  filter: true,
  rules: [],
};

const render = (breaches: RuleBreach[]) =>
  renderToStaticMarkup(
    createElement(RuleBreachBadge, { eventId: 7, breaches, attributes: [population] }),
  );

describe("RuleBreachBadge", () => {
  it("renders nothing for a change that breaks no rule", () => {
    expect(render([])).toBe("");
  });

  it("is a pill like the change-kind label, named by its messages", () => {
    const html = render([
      { attribute: "population", rule: "p", message: "check the figure", severity: "warning" },
    ]);
    expect(html).toContain("rounded-pill");
    expect(html).toContain("bg-warning");
    expect(html).toContain('aria-label="Population: check the figure"');
    expect(html).toContain('data-testid="rule-breach-badge"');
    expect(html).toContain('data-severity="warning"');
  });
});
