import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { post, signedIn } from "./support/api.ts";
import { openUserMenu, signIn } from "./support/app.ts";
import { shot } from "./support/screenshots.ts";
import { admin } from "./support/users.ts";

/**
 * 'My account': a person changes their own e-mail address and password. The spec works with a
 * user of its own, so the other specs' users keep their passwords and addresses.
 */

const run = Date.now().toString(36).slice(-5);

let adminApi: APIRequestContext;

test.beforeAll(async () => {
  adminApi = await signedIn(admin.username, admin.password);
});

async function newUser(username: string, password: string): Promise<void> {
  await post(adminApi, "/api/createuser", {
    username,
    password,
    name: "Account Owner",
    email: `${username}@example.com`,
    isadmin: false,
  });
}

function section(page: Page, name: string) {
  return page.getByRole("region", { name });
}

test("a user changes their e-mail address and password on My account", async ({ page }) => {
  const user = { username: `acct-${run}`, password: "first-password-of-mine" };
  const newPassword = "second-password-of-mine";
  const newEmail = `owner-${run}@example.org`;
  await newUser(user.username, user.password);
  // The same person signed in elsewhere, in another browser.
  const elsewhere = await signedIn(user.username, user.password);

  await signIn(page, user);
  // The user menu, opened from the name in the navigation bar, leads to the page.
  await (await openUserMenu(page)).getByRole("link", { name: "My account" }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My account");
  await expect(page.getByTestId("account-details")).toContainText(user.username);

  const email = section(page, "E-mail address");
  await expect(email.getByLabel("E-mail address")).toHaveValue(`${user.username}@example.com`);
  await email.getByLabel("E-mail address").fill(newEmail);
  await email.getByLabel("Current password").fill(user.password);
  await email.getByRole("button", { name: "Change e-mail address" }).click();
  await expect(email.getByRole("status")).toHaveText("Your e-mail address was changed");
  await expect(email.getByLabel("Current password")).toHaveValue("");

  // The Notifications page sends to the new address, and links back to change it.
  await (await openUserMenu(page)).getByRole("link", { name: "Notifications" }).click();
  await expect(page.getByTestId("notifications-email")).toHaveText(newEmail);
  await page.getByRole("link", { name: "Change it on My account" }).click();
  await expect(page).toHaveURL(/\/account$/);

  const password = section(page, "Change password");
  await password.getByLabel("Current password").fill(user.password);
  await password.getByLabel("New password", { exact: true }).fill("iloveyou1");
  await password.getByLabel("Repeat new password").fill("iloveyou1");
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByRole("alert")).toHaveText(
    "This password appears in a list of breached passwords; choose another",
  );

  await password.getByLabel("Current password").fill(user.password);
  await password.getByLabel("New password", { exact: true }).fill(newPassword);
  await password.getByLabel("Repeat new password").fill(`${newPassword}!`);
  await expect(password.getByText("The new passwords do not match")).toBeVisible();
  await expect(password.getByRole("button", { name: "Change password" })).toBeDisabled();
  await password.getByLabel("Repeat new password").fill(newPassword);
  await password.getByRole("button", { name: "Change password" }).click();
  await expect(password.getByRole("status")).toContainText("Your password was changed");
  await shot(page, "account-01-changed", true);

  // This session goes on; the one elsewhere has ended.
  expect((await elsewhere.post("/api/account/profile", { data: {} })).status()).toBe(401);
  await page.reload();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My account");

  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Invalid username or password")).toBeVisible();
  await signIn(page, { username: user.username, password: newPassword });
});
