import { expect, type Page, test } from "@playwright/test";
import { contextSelect } from "./support/app.ts";
import { companyUser, OIDC_LABEL } from "./support/oidc.ts";
import { REFERENCE } from "./support/users.ts";

const issuer = () => process.env.E2E_OIDC_ISSUER ?? "";

/** Clicks 'Sign in with <label>' and goes through the provider's own login and consent pages. */
async function signInAtProvider(page: Page): Promise<void> {
  await page.goto("/login");
  await page.getByRole("link", { name: `Sign in with ${OIDC_LABEL}` }).click();
  await expect(page).toHaveURL((url) => url.href.startsWith(`${issuer()}/interaction/`));
  await page.locator("input[name=login]").fill(companyUser.login);
  await page.locator("input[name=password]").fill("any-password-at-the-provider");
  await page.getByRole("button", { name: "Sign-in" }).click();
  // The provider asks to share the profile with Ledgerline.
  await expect(page).toHaveURL((url) => url.href.startsWith(`${issuer()}/interaction/`));
  await page.getByRole("button", { name: "Continue" }).click();
}

test.describe("company sign-in (OpenID Connect)", () => {
  test("the login page offers 'Sign in with <label>' above the password form", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("heading", { name: "Please log in to continue" })).toBeVisible();
    const company = page.getByRole("link", { name: `Sign in with ${OIDC_LABEL}` });
    await expect(company).toHaveAttribute("href", "/auth/oidc/login");
    const username = page.getByLabel("Username");
    await expect(username).toBeVisible();
    const [button, field] = await Promise.all([company.boundingBox(), username.boundingBox()]);
    expect(button?.y ?? 0).toBeLessThan(field?.y ?? 0);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Clear" })).toBeVisible();
  });

  test("signs in through the provider's pages and lands on the home page with the mapped roles", async ({
    page,
  }) => {
    await signInAtProvider(page);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("nav-user")).toHaveText(`[User: ${companyUser.login}]`);
    // The group 'ledgerline-readers' maps to viewer in reference data: the only application.
    await expect(contextSelect(page).locator("option:checked")).toHaveText(REFERENCE.uiName);
  });

  test("signing out also signs out at the provider and comes back to the login page", async ({
    page,
  }) => {
    await signInAtProvider(page);
    await expect(page.getByTestId("nav-user")).toHaveText(`[User: ${companyUser.login}]`);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL((url) => url.href.startsWith(`${issuer()}/session/end`));
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Please log in to continue" })).toBeVisible();
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a refused sign-in is explained in a dismissible danger alert", async ({ page }) => {
    // An answer from the provider that this browser never asked for (no sign-in under way).
    await page.goto("/auth/oidc/callback?code=forged&state=forged");
    await expect(page).toHaveURL(/\/login\?error=expired$/);
    const alert = page.getByTestId("login-error");
    await expect(alert).toHaveText(
      `Sign-in with ${OIDC_LABEL} failed: the sign-in took too long or was already used; please try again`,
    );
    await expect(alert).toHaveClass(/alert-danger/);
    await alert.getByRole("button", { name: "Close" }).click();
    await expect(alert).toHaveCount(0);
    await expect(page).toHaveURL(/\/login$/);
  });

  test("with OIDC_ONLY the password form shows only at /login?local=1", async ({ page }) => {
    // The server under test runs without OIDC_ONLY (the API tests cover its refusal of passwords):
    // here the app config says it is on.
    await page.route("**/app-config.json", async (route) => {
      const response = await route.fetch();
      const config = await response.json();
      await route.fulfill({ response, json: { ...config, oidc: { ...config.oidc, only: true } } });
    });
    await page.goto("/login");
    await expect(page.getByRole("link", { name: `Sign in with ${OIDC_LABEL}` })).toBeVisible();
    await expect(page.getByLabel("Username")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Sign in" })).toHaveCount(0);

    await page.goto("/login?local=1");
    await expect(page.getByLabel("Username")).toBeVisible();
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
  });
});
