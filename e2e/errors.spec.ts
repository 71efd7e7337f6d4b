import { expect, test } from "@playwright/test";
import { signIn } from "./support/app.ts";
import { admin } from "./support/users.ts";

test.describe("error notification page", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
  });

  test("an unknown path shows ERR_UNKNOWN_PATH", async ({ page }) => {
    await page.goto("/no/such/page");
    await expect(page).toHaveURL(/\/errornotification\/ERR_UNKNOWN_PATH$/);
    await expect(page.getByTestId("error-notification-message")).toHaveText("ERR_UNKNOWN_PATH");
    // Paths are matched as the route table writes them.
    for (const path of ["/devconsole", "/USERMANAGEMENT"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/errornotification\/ERR_UNKNOWN_PATH$/);
    }
    // The navigation bar stays usable.
    await expect(page.getByTestId("nav-user")).toHaveText("[User: admin]");
    await expect(page.getByTestId("route-error")).toHaveCount(0);
  });

  test("shows the message from the route and leads back to the main page", async ({ page }) => {
    await page.goto("/errornotification/Some%20message");
    await expect(page.getByTestId("error-notification-message")).toHaveText("Some message");
    await page.getByRole("button", { name: "Back to main page" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText("Please select an application")).toBeVisible();
  });

  test("a long message wraps instead of overflowing", async ({ page }) => {
    const long = "x".repeat(400);
    await page.goto(`/errornotification/${long}`);
    const message = page.getByTestId("error-notification-message");
    await expect(message).toHaveText(long);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
