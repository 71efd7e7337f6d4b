import { expect, test } from "@playwright/test";
import { signIn } from "./support/app.ts";
import { shot } from "./support/screenshots.ts";
import { admin, solo } from "./support/users.ts";

/**
 * The search box (issue 47): opened with '/', results as one types, grouped by application and
 * type, arrow keys and Enter open the record in the explorer, selected; 'Show all results' opens
 * the results page with its filters.
 */
test("a person finds a record from the navigation bar and opens it", async ({ page }) => {
  await signIn(page, admin);
  await page.keyboard.press("/");
  const input = page.getByRole("combobox", { name: "Search records and the data dictionary" });
  await expect(input).toBeFocused();
  await input.pressSequentially("argent", { delay: 40 });
  const list = page.getByRole("listbox", { name: "Search results" });
  const argentina = list.getByRole("option", { name: /Argentina \(AR\)/ });
  await expect(argentina).toBeVisible();
  await expect(list.getByText("Reference Data · Country")).toBeVisible();
  await expect(argentina.locator("mark")).toHaveText("Argent");
  await shot(page, "search-box");

  await input.press("ArrowDown");
  await expect(input).toHaveAttribute(
    "aria-activedescendant",
    (await argentina.getAttribute("id")) as string,
  );
  await input.press("Enter");
  await expect(page).toHaveURL(/\/explorer\?context=reference&type=country&record=\d+/);
  const selected = page.locator('[data-testid="record-row"][aria-selected="true"]');
  await expect(selected).toContainText("Argentina");
  await expect(selected).toBeInViewport();
  await shot(page, "search-opened-record");
  await page.getByTestId("explorer-show-all").click();
  await expect(page.getByTestId("record-row").nth(1)).toBeVisible();

  // Ctrl+K opens it too; the last search is offered before typing.
  await page.keyboard.press("Control+k");
  await expect(input).toBeFocused();
  await expect(list.getByRole("option", { name: "argent" })).toBeVisible();
  await input.fill("republic");
  // Until its answer comes the list shows the last one's (it does not flicker as one types):
  // wait for this query's hits, or the click may land on a row that changes under the pointer.
  await expect(list.getByRole("option", { name: /Republic/ }).first()).toBeVisible();
  await list.getByRole("option", { name: "Show all results" }).click();
  await expect(page).toHaveURL(/\/search\?q=republic/);
  await expect(page.getByTestId("search-page-hit").first()).toContainText("Republic");
  await page.getByTestId("search-filter-context").selectOption("reference");
  await page.getByTestId("search-filter-type").selectOption("country");
  await expect(page.getByTestId("search-count")).toContainText("found");
  await shot(page, "search-results-page", true);
});

test("a person who reads one application finds nothing of another", async ({ page }) => {
  await signIn(page, solo);
  const input = page.getByRole("combobox", { name: "Search records and the data dictionary" });
  await input.click();
  await input.fill("dataelement");
  await expect(page.getByTestId("search-none")).toBeVisible();
  await input.fill("euro");
  await expect(page.getByRole("option", { name: /EUR - Euro/ })).toBeVisible();
  await expect(page.getByText(/Data Dictionary ·/)).toHaveCount(0);
});
