import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { BreaksRuleToggle } from "./breaks-rule-toggle.tsx";

const render = (on: boolean) =>
  renderToStaticMarkup(createElement(BreaksRuleToggle, { on, onChange: () => {} }));

describe("BreaksRuleToggle", () => {
  it("is an outlined grey button with an empty box when off", () => {
    const html = render(false);
    expect(html).toContain("btn-outline-secondary");
    expect(html).toContain('aria-pressed="false"');
    expect(html).toContain("bi-square");
  });

  it("fills grey like the Filters toggle when on, never red, and ticks its box", () => {
    const html = render(true);
    expect(html).toMatch(/class="[^"]*\bbtn-secondary\b/);
    expect(html).not.toContain("danger");
    expect(html).toContain('aria-pressed="true"');
    expect(html).toContain("bi-check2-square");
    expect(html).toContain('data-testid="breaks-rule-toggle"');
  });
});
