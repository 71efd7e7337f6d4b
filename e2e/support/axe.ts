import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";

/** The rules the product answers for: WCAG 2.0, 2.1 and 2.2, levels A and AA (issue 49). */
export const WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];

/** An open menu or popover: it covers part of the page while it is open. */
const POPUP = ".dropdown-menu.show, .popover.show";

type Violations = Awaited<ReturnType<AxeBuilder["analyze"]>>["violations"];

/** One line per failing rule and element, readable in a test report. */
function violationLines(violations: Violations): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(" ")} — ${n.failureSummary ?? ""}`),
  );
}

/** Runs axe on the page in the colour mode it shows now. */
async function violationsNow(page: Page): Promise<Violations> {
  const popupOpen = (await page.locator(POPUP).count()) > 0;
  const whole = new AxeBuilder({ page }).withTags(WCAG_TAGS);
  if (popupOpen) whole.disableRules(["target-size"]);
  const violations = (await whole.analyze()).violations;
  if (popupOpen) {
    const popup = new AxeBuilder({ page }).withRules(["target-size"]).include(POPUP);
    violations.push(...(await popup.analyze()).violations);
  }
  return violations;
}

/**
 * Runs axe-core on the page as it stands now, in the light and in the dark theme (the app
 * follows the system's colour scheme unless the user chose one), and expects no WCAG A/AA
 * violation in either. With a menu open, target sizes are measured in the menu only: the
 * controls it covers cannot be clicked until it closes, and axe would count them as obscured
 * targets (docs/accessibility.md).
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  const lines: string[] = [];
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator("html")).toHaveAttribute("data-bs-theme", theme);
    // Let transitions (modals, menus, toasts, the change of theme) settle: axe reads colours
    // mid-fade otherwise.
    await page.waitForTimeout(350);
    const violations = await violationsNow(page);
    await test.info().attach(`axe ${what} (${theme})`, {
      body: JSON.stringify(violations, null, 2),
      contentType: "application/json",
    });
    lines.push(...violationLines(violations).map((line) => `${theme}: ${line}`));
  }
  await page.emulateMedia({ colorScheme: "light" });
  expect(lines, `axe on ${what}`).toEqual([]);
}
