import { expect, type Locator, type Page, test } from "@playwright/test";
import { signIn } from "./support/app.ts";
import { shot } from "./support/screenshots.ts";
import { admin, REFERENCE } from "./support/users.ts";

// The demo's UN M49 regions: a type with a parent shows its tree beside the table.

const rows = (page: Page): Locator => page.getByTestId("record-row");
const position = (page: Page): Locator => page.getByTestId("position-message");
const tree = (page: Page): Locator => page.getByRole("tree", { name: "Region tree" });
const node = (page: Page, label: string): Locator =>
  tree(page).getByRole("treeitem", { name: label, exact: true });

async function openRegions(page: Page): Promise<void> {
  await signIn(page, admin);
  const contexts = page.getByTestId("context-select");
  await expect(contexts.getByRole("option", { name: REFERENCE.uiName })).toBeAttached();
  await contexts.selectOption({ label: REFERENCE.uiName });
  await page.getByTestId("nav-explorer").click();
  await page.getByTestId("type-sidenav").getByRole("button", { name: "Region" }).click();
  await expect(page.getByTestId("explorer-title")).toHaveText("Region");
  await expect(rows(page).first()).toBeVisible();
}

test.describe("the tree of a type with a parent", () => {
  test("opens and closes nodes, loading children as they are opened", async ({ page }) => {
    await openRegions(page);
    const world = node(page, "World");
    await expect(world).toHaveAttribute("aria-expanded", "false");
    await expect(tree(page).getByRole("treeitem")).toHaveCount(1);

    await tree(page).getByRole("button", { name: "Expand World" }).click();
    await expect(world).toHaveAttribute("aria-expanded", "true");
    await expect(world.getByRole("group").getByRole("treeitem")).toHaveText([
      "Africa",
      "Americas",
      "Asia",
      "Europe",
      "Oceania",
    ]);
    await tree(page).getByRole("button", { name: "Expand Europe" }).click();
    await expect(node(page, "Western Europe")).toBeVisible();
    // A leaf has no toggle, nor an expanded state.
    await expect(node(page, "Western Europe")).not.toHaveAttribute("aria-expanded");
    await shot(page, "hierarchy-tree");

    await tree(page).getByRole("button", { name: "Collapse World" }).click();
    await expect(world).toHaveAttribute("aria-expanded", "false");
    await expect(tree(page).getByRole("treeitem")).toHaveCount(1);
  });

  test("opens with the keyboard: Right opens, Down moves, Enter selects", async ({ page }) => {
    await openRegions(page);
    await node(page, "World").focus();
    await page.keyboard.press("ArrowRight");
    await expect(node(page, "Africa")).toBeVisible();
    await page.keyboard.press("ArrowDown");
    await expect(node(page, "Africa")).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(node(page, "Africa")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("tree-breadcrumbs").getByRole("listitem")).toHaveText([
      "World",
      "Africa",
    ]);
  });

  test("a record selected in the table opens the nodes above it in the tree", async ({ page }) => {
    await openRegions(page);
    await expect(tree(page).getByRole("treeitem")).toHaveCount(1);
    await rows(page).filter({ hasText: "Western Africa" }).click();
    for (const above of ["World", "Africa", "Sub-Saharan Africa"])
      await expect(node(page, above)).toHaveAttribute("aria-expanded", "true");
    await expect(node(page, "Western Africa")).toHaveAttribute("aria-selected", "true");
    await expect(node(page, "Western Africa").getByTestId("tree-label")).toBeInViewport();
  });

  test("shows the selected record's path and filters by its descendants and ancestors", async ({
    page,
  }) => {
    await openRegions(page);
    await tree(page).getByRole("button", { name: "Expand World" }).click();
    await tree(page).getByRole("button", { name: "Expand Europe" }).click();
    await tree(page).getByRole("button", { name: "Expand Northern Europe" }).click();
    await node(page, "Channel Islands").getByTestId("tree-label").click();
    const crumbs = page.getByRole("navigation", {
      name: "Place of Channel Islands in the Region tree",
    });
    await expect(crumbs.getByRole("listitem")).toHaveText([
      "World",
      "Europe",
      "Northern Europe",
      "Channel Islands",
    ]);

    // A step of the path selects that record.
    await crumbs.getByRole("button", { name: "Europe", exact: true }).click();
    await expect(node(page, "Europe")).toHaveAttribute("aria-selected", "true");
    await page.getByRole("button", { name: "Descendants of Europe" }).click();
    const panel = page.getByTestId("filter-panel");
    await expect(panel).toBeVisible();
    await expect(panel.getByLabel("Part of operator")).toHaveValue("Descendants");
    await expect(panel.getByLabel("Part of operator").locator("option:checked")).toHaveText(
      "Descendants of",
    );
    await expect(position(page)).toHaveText("1 - 5 of 5 results");
    await expect(rows(page).locator("td:nth-child(2)")).toHaveText([
      "Eastern Europe",
      "Northern Europe",
      "Southern Europe",
      "Western Europe",
      "Channel Islands",
    ]);
    await shot(page, "hierarchy-descendants", true);
  });

  test("adds the Path column to the table", async ({ page }) => {
    await openRegions(page);
    await page.getByTestId("columns-toggle").click();
    await page.getByTestId("columns-menu").getByLabel("Path").check();
    await page.keyboard.press("Escape");
    await expect(page.getByRole("columnheader", { name: "Path" })).toBeVisible();
    const eastern = rows(page).filter({ hasText: "Eastern Africa" });
    await expect(
      eastern.getByText("World / Africa / Sub-Saharan Africa / Eastern Africa"),
    ).toBeVisible();
  });
});
