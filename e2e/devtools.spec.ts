import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { signIn } from "./support/app.ts";
import { admin, plain } from "./support/users.ts";

// Review screenshots, taken only when E2E_SCREENSHOTS names a folder.
async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
}

test.describe("developer pages", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
  });

  test("the theme showcase shows icons, buttons, badges, a modal and tables", async ({ page }) => {
    await page.getByRole("button", { name: "Developer" }).click();
    await page.getByRole("link", { name: "Theme" }).click();
    await expect(page).toHaveURL(/\/theme$/);
    for (const section of ["Icons", "Buttons", "Badges", "Modal", "Tables"]) {
      await expect(page.getByRole("heading", { name: section, exact: true })).toBeVisible();
    }
    await expect(page.locator(".bi-trash")).toBeVisible();
    await expect(page.getByRole("table")).toHaveCount(2);
    await shot(page, "theme-light", true);

    await page.getByRole("button", { name: "open modal" }).click();
    const modal = page.getByRole("dialog", { name: "Sample modal" });
    await expect(modal).toBeVisible();
    await shot(page, "theme-modal");
    await modal.getByRole("button", { name: "OK" }).click();
    await expect(modal).toHaveCount(0);
  });

  test("switches the showcase between light and dark", async ({ page }) => {
    await page.goto("/theme");
    const showcase = page.getByTestId("theme-showcase");
    await expect(showcase).toHaveAttribute("data-bs-theme", "light");
    await page.getByLabel("Dark mode").check();
    await expect(showcase).toHaveAttribute("data-bs-theme", "dark");
    const background = await showcase.evaluate((el) => getComputedStyle(el).backgroundColor);
    expect(background).not.toBe("rgb(255, 255, 255)");
    await shot(page, "theme-dark", true);
    await page.getByRole("button", { name: "open modal" }).click();
    await expect(page.getByRole("dialog", { name: "Sample modal" })).toBeVisible();
    await shot(page, "theme-dark-modal");
    await page.keyboard.press("Escape");
    await page.getByLabel("Dark mode").uncheck();
    await expect(showcase).toHaveAttribute("data-bs-theme", "light");
    // The rest of the application keeps its colours.
    await expect(page.locator("html")).not.toHaveAttribute("data-bs-theme", "dark");
  });

  test("the date format page formats the date and time with the format string", async ({
    page,
  }) => {
    await page.goto("/testdate");
    const result = page.getByTestId("testdate-result");
    await expect(page.getByLabel("Format string")).toHaveValue("YYYY/MM/DD HH:mm:ss");
    await page.getByLabel("Date").fill("2024-03-05");
    await page.getByLabel("Time").fill("07:08:09");
    await expect(result).toHaveText("2024/03/05 07:08:09");
    await page.getByLabel("Format string").fill("DD.MM.YY [at] H:mm");
    await expect(result).toHaveText("05.03.24 at 7:08");
    await page.getByRole("button", { name: "_YYYY-MM-DD_H-mm-ss" }).click();
    await expect(result).toHaveText("_2024-03-05_7-08-09");
    await shot(page, "testdate");
    await page.getByLabel("Date").fill("");
    await expect(result).toHaveText("Enter a valid date");
  });
});

test("a user who is not a developer is sent home from /theme, and may open /testdate", async ({
  page,
}) => {
  await signIn(page, plain);
  await expect(page.getByRole("button", { name: "Developer" })).toHaveCount(0);
  await page.goto("/theme");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("theme-showcase")).toHaveCount(0);
  // SPEC.md names the console and the theme page developer-only; the date test page is not.
  await page.goto("/testdate");
  await expect(page.getByRole("heading", { name: "Date format test" })).toBeVisible();
});
