import { expect, test } from "@playwright/test";
import { signIn } from "./support/app.ts";
import { admin } from "./support/users.ts";

test.describe("navigation guard", () => {
  for (const path of ["/", "/explorer", "/usermanagement"]) {
    test(`visiting ${path} without a session leads to the login page`, async ({ page }) => {
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole("heading", { name: "Please log in to continue" })).toBeVisible();
      // Signed out: a login icon instead of the user's name and logout icon.
      await expect(page.getByTestId("nav-login")).toBeVisible();
      await expect(page.getByTestId("nav-user")).toHaveCount(0);
      await expect(page.getByTestId("nav-logout")).toHaveCount(0);
    });
  }

  test("signing in after a link opened signed out goes on to that link", async ({ page }) => {
    // An e-mail's link to the pending changes of a type, opened in a browser with no session.
    await page.goto("/pending?context=reference&type=country");
    await expect(page).toHaveURL(/\/login$/);
    await page.getByLabel("Username").fill(admin.username);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    // The pending screen selects the application the link names, and keeps it in the address.
    await expect(page).toHaveURL(/\/pending\?context=reference&type=country$/);
    await expect(page.getByTestId("context-select")).toHaveValue("reference");
    await expect(page.getByTestId("nav-user")).toHaveText(`[User: ${admin.username}]`);
  });
});

test.describe("login page", () => {
  test.beforeEach(async ({ page }) => {
    await page.goto("/login");
  });

  test("shows the heading, both fields and both buttons", async ({ page }) => {
    await expect(page.getByRole("heading", { name: "Please log in to continue" })).toBeVisible();
    await expect(page.getByLabel("Username")).toBeVisible();
    await expect(page.getByLabel("Password")).toHaveAttribute("type", "password");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Clear" })).toBeVisible();
    // No context-dependent entries while signed out.
    await expect(page.getByTestId("nav-upload")).toHaveCount(0);
    await expect(page.getByTestId("context-select")).toHaveCount(0);
  });

  test("'Sign in' needs both a username and a password", async ({ page }) => {
    const signInButton = page.getByRole("button", { name: "Sign in" });
    await expect(signInButton).toBeDisabled();
    await page.getByLabel("Username").fill("admin");
    await expect(signInButton).toBeDisabled();
    await page.getByLabel("Password").fill("something");
    await expect(signInButton).toBeEnabled();
    await page.getByLabel("Username").fill("");
    await expect(signInButton).toBeDisabled();
  });

  test("'Clear' empties both fields", async ({ page }) => {
    await page.getByLabel("Username").fill("someone");
    await page.getByLabel("Password").fill("secret-secret");
    await page.getByRole("button", { name: "Clear" }).click();
    await expect(page.getByLabel("Username")).toHaveValue("");
    await expect(page.getByLabel("Password")).toHaveValue("");
    await expect(page.getByRole("button", { name: "Sign in" })).toBeDisabled();
  });

  test("a wrong password shows a dismissible danger alert", async ({ page }) => {
    await page.getByLabel("Username").fill(admin.username);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in" }).click();

    const alert = page.getByTestId("login-error");
    await expect(alert).toBeVisible();
    await expect(alert).toHaveText("Invalid username or password");
    await expect(alert).toHaveClass(/alert-danger/);
    await expect(page).toHaveURL(/\/login$/);

    await alert.getByRole("button", { name: "Close" }).click();
    await expect(alert).toHaveCount(0);
    await expect(page.getByLabel("Username")).toHaveValue(admin.username);
  });

  test("an unknown user gets the same message", async ({ page }) => {
    await page.getByLabel("Username").fill("nobody-here");
    await page.getByLabel("Password").fill("whatever-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("login-error")).toHaveText("Invalid username or password");
  });

  test("'Sign in' shows a spinner while the server answers", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/auth/login", async (route) => {
      await held;
      await route.continue();
    });

    await page.getByLabel("Username").fill(admin.username);
    await page.getByLabel("Password").fill(admin.password);
    const signInButton = page.getByRole("button", { name: "Sign in" });
    await signInButton.click();

    await expect(page.getByTestId("login-spinner")).toBeVisible();
    await expect(signInButton).toBeDisabled();
    release();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("login-spinner")).toHaveCount(0);
  });

  test("signing in with the right password lands on the home page", async ({ page }) => {
    await page.getByLabel("Username").fill(admin.username);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("nav-user")).toHaveText("[User: admin]");
    await expect(page.getByTestId("nav-logout")).toBeVisible();
    await expect(page.getByTestId("nav-login")).toHaveCount(0);
  });
});

test.describe("logout", () => {
  test("returns to the login page, and the home page stays closed", async ({ page }) => {
    await signIn(page, admin);
    await page.getByRole("button", { name: "Log out" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole("heading", { name: "Please log in to continue" })).toBeVisible();
    await expect(page.getByTestId("nav-user")).toHaveCount(0);

    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });

  test("a session the server no longer knows sends the user to the login page", async ({
    page,
    context,
  }) => {
    await signIn(page, admin);
    // The server forgets the session (the cookie is gone); the next call answers 401.
    await context.clearCookies();
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByTestId("nav-user")).toHaveCount(0);
    await page.goto("/");
    await expect(page).toHaveURL(/\/login$/);
  });
});
