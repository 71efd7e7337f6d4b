import { expect, type Locator, type Page } from "@playwright/test";

/** A changed value as the pending screen and the compare view colour it: old struck through in orange, new on yellow. */
export async function expectChangedCell(cell: Locator, old: string, now: string): Promise<void> {
  await expect(cell).toHaveAttribute("data-change", "changed");
  const before = cell.getByTestId("old-value");
  await expect(before).toHaveText(old);
  await expect(before).toHaveCSS("text-decoration-line", "line-through");
  await expect(before).toHaveCSS("color", "rgb(253, 126, 20)");
  await expect(cell.getByTestId("new-value")).toHaveText(now);
  await expect(cell.getByTestId("new-value")).toHaveCSS("background-color", "rgb(255, 230, 156)");
}

/** Narrows a list to the ISO codes starting with `prefix` through the filter panel, then closes it. */
export async function filterByIsoCode(page: Page, prefix: string): Promise<void> {
  await page.getByTestId("filter-toggle").click();
  const panel = page.getByTestId("filter-panel");
  // A list refreshed by another user's change can close the menu as it opens: open it again.
  await expect(async () => {
    await panel.getByTestId("add-filter").click();
    await panel.getByRole("button", { name: "ISO code", exact: true }).click({ timeout: 3_000 });
  }).toPass();
  await panel.getByLabel("ISO code value").fill(prefix);
  await page.getByTestId("filter-toggle").click();
  await expect(panel).toBeHidden();
}
