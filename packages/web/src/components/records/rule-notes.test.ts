import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { FieldRules, RuleHint } from "./rule-check.ts";
import { RuleNotes } from "./rule-notes.tsx";

const hint = (id: string, message: string): RuleHint => ({
  id,
  message,
  between: false,
  checkedOnSave: false,
});
const future = hint("joined:range", "The date of joining the EU cannot be in the future");
const member = hint("member", "An EU member is expected to have the date it joined");
const NONE: FieldRules = { errors: [], stored: [], warnings: [] };

/** The lines under the field (flat markup: one div each): test id, classes, icon and text. */
function lines(rules: FieldRules, feedback: boolean) {
  const html = renderToStaticMarkup(
    createElement(RuleNotes, { name: "joined_eu", hints: [future, member], rules, feedback }),
  );
  const attribute = (attrs: string, name: string) =>
    new RegExp(`${name}="([^"]*)"`).exec(attrs)?.[1] ?? "";
  return [...html.matchAll(/<div([^>]*)>(.*?)<\/div>/g)].map(([, attrs, inner]) => ({
    testId: attribute(attrs, "data-testid"),
    className: attribute(attrs, "class"),
    icon: /<i class="bi ([^" ]+)/.exec(inner)?.[1] ?? "",
    text: inner.replace(/<[^>]+>/g, ""),
  }));
}

describe("RuleNotes", () => {
  it("keeps the declared order when a rule turns into a warning", () => {
    expect(lines(NONE, true).map((l) => [l.testId, l.text])).toEqual([
      ["rule-hint-joined_eu", future.message],
      ["rule-hint-joined_eu", member.message],
    ]);
    const warned = lines({ ...NONE, warnings: [member] }, true);
    expect(warned.map((l) => [l.testId, l.icon, l.text])).toEqual([
      ["rule-hint-joined_eu", "bi-info-circle", future.message],
      ["rule-warning-joined_eu", "bi-exclamation-triangle-fill", `Warning: ${member.message}`],
    ]);
  });

  it("gives an error the same icon as the other lines, as invalid feedback or a red line", () => {
    for (const feedback of [true, false]) {
      const [error, other] = lines({ ...NONE, errors: [future] }, feedback);
      expect(error).toMatchObject({
        testId: "rule-error-joined_eu",
        icon: "bi-x-circle-fill",
        text: future.message,
      });
      expect(error.className).toContain(feedback ? "invalid-feedback" : "text-danger");
      expect(other).toMatchObject({ testId: "rule-hint-joined_eu", text: member.message });
    }
  });

  it("marks a breach the stored record has already, in its place", () => {
    const [first, stored] = lines({ ...NONE, stored: [member] }, false);
    expect(first.testId).toBe("rule-hint-joined_eu");
    expect(stored).toMatchObject({
      testId: "rule-stored-joined_eu",
      icon: "bi-exclamation-octagon",
      text: `${member.message} (already stored)`,
    });
  });
});
