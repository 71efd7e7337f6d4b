import { expect, type Page, test } from "@playwright/test";
import { chooseContext, contextSelect, mainNav, openUserMenu, signIn } from "./support/app.ts";
import { admin, DICTIONARY, norole, plain, REFERENCE, solo } from "./support/users.ts";

const contextItems = ["Upload (xlsx)", "Data explorer", "Pending changes"];
const dictionaryItems = ["Data wiki manager", "System environments"];

async function expectLinks(page: Page, shown: string[], hidden: string[]): Promise<void> {
  const nav = mainNav(page);
  for (const name of shown) {
    await expect(nav.getByRole("link", { name, exact: true })).toBeVisible();
  }
  for (const name of hidden) {
    await expect(nav.getByRole("link", { name, exact: true })).toHaveCount(0);
  }
}

test.describe("navigation bar of an administrator and developer", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
  });

  test("without a context only the home-level items are shown", async ({ page }) => {
    await expect(page.locator("header").getByText("Application", { exact: true })).toBeVisible();
    await expect(contextSelect(page)).toBeEnabled();
    await expect(page.getByTestId("nav-user")).toHaveText("[User: admin]");
    await expectLinks(page, ["Home"], [...contextItems, ...dictionaryItems]);
    await expect(page.getByRole("button", { name: "Developer" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Administration" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Log out" })).toBeVisible();
  });

  test("the selector offers both applications by their display names", async ({ page }) => {
    const options = contextSelect(page).locator("option:not([disabled])");
    await expect(options).toHaveText([DICTIONARY.uiName, REFERENCE.uiName]);
  });

  test("'Reference Data' adds upload, explorer and pending changes", async ({ page }) => {
    await chooseContext(page, REFERENCE.uiName);
    await expectLinks(page, ["Home", ...contextItems], dictionaryItems);
  });

  test("'Data Dictionary' adds the wiki manager and system environments too", async ({ page }) => {
    await chooseContext(page, DICTIONARY.uiName);
    await expectLinks(page, ["Home", ...contextItems, ...dictionaryItems], []);

    await chooseContext(page, REFERENCE.uiName);
    await expectLinks(page, contextItems, dictionaryItems);
  });

  test("the developer menu holds Developer Console and Theme", async ({ page }) => {
    const item = (name: string) => page.getByRole("link", { name, exact: true });
    await expect(item("Developer Console")).toBeHidden();
    await page.getByRole("button", { name: "Developer" }).click();
    await expect(item("Developer Console")).toBeVisible();
    await expect(item("Theme")).toBeVisible();
    await expect(page.getByTestId("nav-devconsole")).toHaveAttribute("href", "/DevConsole");
    await expect(page.getByTestId("nav-theme")).toHaveAttribute("href", "/theme");
  });

  test("the administration menu holds User and Role management", async ({ page }) => {
    const item = (name: string) => page.getByRole("link", { name, exact: true });
    await page.getByRole("button", { name: "Administration" }).click();
    await expect(item("User management")).toBeVisible();
    await expect(item("Role management")).toBeVisible();
    await expect(page.getByTestId("nav-usermanagement")).toHaveAttribute("href", "/usermanagement");
    await expect(page.getByTestId("nav-rolemanagement")).toHaveAttribute("href", "/rolemanagement");
  });

  test("the user menu holds My account, Notifications, My tokens and the theme", async ({
    page,
  }) => {
    await openUserMenu(page);
    const header = page.locator("header");
    await expect(header.getByRole("link", { name: "My account" })).toHaveAttribute(
      "href",
      "/account",
    );
    await expect(header.getByRole("link", { name: "Notifications" })).toHaveAttribute(
      "href",
      "/notifications",
    );
    await expect(header.getByRole("link", { name: "My tokens" })).toHaveAttribute(
      "href",
      "/tokens",
    );
    await header.getByRole("button", { name: "Dark theme" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-bs-theme", "dark");
    await openUserMenu(page);
    await header.getByRole("button", { name: "Light theme" }).click();
    await expect(page.locator("html")).toHaveAttribute("data-bs-theme", "light");
  });

  test("the chosen context survives a reload", async ({ page }) => {
    await chooseContext(page, DICTIONARY.uiName);
    await page.reload();
    await expect(contextSelect(page)).toHaveValue(DICTIONARY.name);
    await expect(contextSelect(page).locator("option:checked")).toHaveText(DICTIONARY.uiName);
    await expectLinks(page, [...contextItems, ...dictionaryItems], []);
    await expect(page.getByTestId("home-card-upload")).toBeVisible();
  });

  for (const width of [1024, 1280]) {
    test(`every item stays inside a ${width} px wide window`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 });
      // Narrow windows fold the bar behind the toggle button.
      const toggle = page.getByRole("button", { name: "Toggle navigation" });
      if (await toggle.isVisible()) await toggle.click();
      await chooseContext(page, DICTIONARY.uiName);
      const logout = page.getByRole("button", { name: "Log out" });
      await expect(logout).toBeInViewport({ ratio: 1 });
      await expect(page.getByRole("button", { name: "Administration" })).toBeInViewport({
        ratio: 1,
      });
      const overflow = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }

  test("on a narrow screen the folded-out menu closes after moving to another page", async ({
    page,
  }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto("/errornotification/elsewhere");
    const home = mainNav(page).getByRole("link", { name: "Home", exact: true });
    await expect(home).toBeHidden();
    await page.getByRole("button", { name: "Toggle navigation" }).click();
    await home.click();
    await expect(page).toHaveURL(/\/$/);
    await expect(home).toBeHidden();
    await expect(page.getByText("Please select an application")).toBeInViewport();
  });

  test("the Home link leads back to the home page", async ({ page }) => {
    await page.goto("/errornotification/elsewhere");
    await mainNav(page).getByRole("link", { name: "Home", exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Please select an application")).toBeVisible();
  });
});

test.describe("navigation flags", () => {
  test("items switched off in the app config disappear", async ({ page }) => {
    await page.route("**/app-config.json", async (route) => {
      const response = await route.fetch();
      const config = (await response.json()) as Record<string, unknown>;
      await route.fulfill({ response, json: { ...config, navHidden: ["upload", "developer"] } });
    });
    await signIn(page, admin);
    await chooseContext(page, REFERENCE.uiName);

    await expectLinks(page, ["Home", "Data explorer", "Pending changes"], ["Upload (xlsx)"]);
    await expect(page.getByRole("button", { name: "Developer" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Administration" })).toBeVisible();
    // The home cards are not navigation items: the upload card stays.
    await expect(page.getByTestId("home-card-upload")).toBeVisible();
  });
});

test.describe("navigation bar of other users", () => {
  test("a user without administrator or developer rights sees neither menu", async ({ page }) => {
    await signIn(page, plain);
    await expect(page.getByTestId("nav-user")).toHaveText("[User: plain]");
    await expect(contextSelect(page)).toBeEnabled();
    await chooseContext(page, DICTIONARY.uiName);
    await expectLinks(page, [...contextItems, ...dictionaryItems], []);
    await expect(page.getByRole("button", { name: "Developer" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Administration" })).toHaveCount(0);
    await expect(page.getByTestId("nav-developer")).toHaveCount(0);
    await expect(page.getByTestId("nav-admin")).toHaveCount(0);
  });

  test("with a single context it is chosen automatically and cannot be changed", async ({
    page,
  }) => {
    await signIn(page, solo);
    const select = contextSelect(page);
    await expect(select).toBeDisabled();
    await expect(select).toHaveValue(REFERENCE.name);
    await expect(select.locator("option:checked")).toHaveText(REFERENCE.uiName);
    await expectLinks(page, contextItems, dictionaryItems);
    await expect(page.getByTestId("home-card-explorer")).toBeVisible();
  });

  test("without any role no application can be chosen", async ({ page }) => {
    await signIn(page, norole);
    await expect(page.getByText("Please select an application")).toBeVisible();
    await expect(page.getByTestId("no-applications")).toHaveText(
      "You have no role in any application yet: an administrator grants one on the Role management page.",
    );
    const select = contextSelect(page);
    await expect(select).toBeDisabled();
    await expect(select.locator("option:not([disabled])")).toHaveCount(0);
    await expectLinks(page, ["Home"], [...contextItems, ...dictionaryItems]);
  });

  test("a new sign-in does not inherit the previous user's context", async ({ page }) => {
    await signIn(page, admin);
    await chooseContext(page, DICTIONARY.uiName);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await signIn(page, plain);
    await expect(page.getByText("Please select an application")).toBeVisible();
    await expect(page.getByTestId("no-applications")).toHaveCount(0);
    await expectLinks(page, ["Home"], [...contextItems, ...dictionaryItems]);
  });
});
