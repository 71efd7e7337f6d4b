import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { chooseContext, signIn } from "./support/app.ts";
import { admin, DICTIONARY, norole, plain, REFERENCE, solo } from "./support/users.ts";

/**
 * Screenshots for a visual review, not assertions: run with
 * `E2E_SCREENSHOTS=/tmp/shots npx playwright test screenshots`. Skipped otherwise.
 */
const dir = process.env.E2E_SCREENSHOTS;

test.skip(!dir, "set E2E_SCREENSHOTS to a folder to take review screenshots");

async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  // Let transitions (dropdowns, alerts) settle.
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir ?? ".", `${name}.png`), fullPage });
}

test("login page", async ({ page }) => {
  await page.goto("/login");
  await shot(page, "01-login");
  await page.getByLabel("Username").fill(admin.username);
  await page.getByLabel("Password").fill("wrong-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByTestId("login-error")).toBeVisible();
  await shot(page, "02-login-error");
});

test("home page and menus of the administrator", async ({ page }) => {
  await signIn(page, admin);
  await shot(page, "03-home-no-context");
  await chooseContext(page, REFERENCE.uiName);
  await shot(page, "04-home-reference");
  await chooseContext(page, DICTIONARY.uiName);
  await shot(page, "05-home-dictionary");
  await page.getByRole("button", { name: "Developer" }).click();
  await expect(page.getByRole("link", { name: "Theme" })).toBeVisible();
  await shot(page, "06-developer-menu");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Administration" }).click();
  await expect(page.getByRole("link", { name: "Role management" })).toBeVisible();
  await shot(page, "07-admin-menu");
  await page.keyboard.press("Escape");
  await page.goto("/no/such/page");
  await expect(page.getByTestId("error-notification-message")).toBeVisible();
  await shot(page, "08-error-page");
  await page.goto(`/errornotification/${encodeURIComponent("A much longer message ".repeat(20))}`);
  await shot(page, "09-error-page-long");
});

test("other users", async ({ page }) => {
  await signIn(page, solo);
  await shot(page, "10-solo");
  await page.getByRole("button", { name: "Log out" }).click();
  await signIn(page, norole);
  await shot(page, "11-norole");
  await page.getByRole("button", { name: "Log out" }).click();
  await signIn(page, plain);
  await chooseContext(page, DICTIONARY.uiName);
  await shot(page, "12-plain-dictionary");
});

test("narrow and medium windows", async ({ page }) => {
  await signIn(page, admin);
  await chooseContext(page, DICTIONARY.uiName);
  await page.setViewportSize({ width: 1024, height: 700 });
  await shot(page, "13-width-1024");
  await page.setViewportSize({ width: 1200, height: 700 });
  await shot(page, "14-width-1200");
  await page.setViewportSize({ width: 390, height: 800 });
  await shot(page, "15-phone", true);
  await page.getByRole("button", { name: "Toggle navigation" }).click();
  await shot(page, "16-phone-menu", true);
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await shot(page, "17-phone-login", true);
});

test("main screens in the light and the dark theme", async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, admin);
  await chooseContext(page, REFERENCE.uiName);
  const screens: [string, string][] = [
    ["home", "/"],
    ["upload", "/upload"],
    ["explorer", "/explorer?context=reference&type=country"],
    ["pending", "/pending?context=reference"],
    ["notifications", "/notifications"],
    ["users", "/usermanagement"],
    ["theme", "/theme"],
  ];
  for (const theme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme: theme });
    for (const [name, url] of screens) {
      await page.goto(url);
      await page.waitForLoadState("networkidle");
      await shot(page, `20-${theme}-${name}`);
    }
    await page.goto("/explorer?context=reference");
    await page.getByTestId("type-sidenav").getByRole("button", { name: "Country" }).click();
    await expect(page.getByTestId("record-row").first()).toBeVisible();
    await page.getByTestId("filter-toggle").click();
    await shot(page, `21-${theme}-explorer-country`);
    await chooseContext(page, DICTIONARY.uiName);
    await page.goto("/system-environment");
    await page.waitForLoadState("networkidle");
    await shot(page, `22-${theme}-system-environments`);
    await page.goto("/wikimanager");
    await page.waitForLoadState("networkidle");
    await shot(page, `23-${theme}-wikimanager`);
    await chooseContext(page, REFERENCE.uiName);
  }
});
