import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { FROM_PAGE } from "./support/api.ts";
import { signIn } from "./support/app.ts";
import { admin, plain } from "./support/users.ts";

// Review screenshots, taken only when E2E_SCREENSHOTS names a folder.
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/** Signs the API request context in as the administrator. */
async function asAdmin(request: APIRequestContext): Promise<APIRequestContext> {
  const login = await request.post("/auth/login", {
    form: { username: admin.username, password: admin.password },
  });
  expect(login.ok()).toBe(true);
  return request;
}

/** A user made through the API as the administrator, so each test starts from its own user. */
async function createUser(request: APIRequestContext, username: string, password: string) {
  const res = await (await asAdmin(request)).post("/api/createuser", {
    headers: FROM_PAGE,
    data: {
      username,
      name: `${username} Person`,
      email: `${username}@example.com`,
      password,
      isadmin: false,
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

function row(page: Page, username: string) {
  return page
    .getByTestId("users-table")
    .getByRole("row")
    .filter({
      has: page.getByRole("cell", { name: username, exact: true }),
    });
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test.describe("user management", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
  });

  test("lists the users; edit and remove need a selected row", async ({ page }) => {
    await page.getByRole("button", { name: "Administration" }).click();
    await page.getByRole("link", { name: "User management" }).click();
    await expect(page).toHaveURL(/\/usermanagement$/);
    const table = page.getByTestId("users-table");
    await expect(table.getByRole("columnheader")).toHaveText([
      "Username",
      "Display name",
      "Email",
      "Administrator",
    ]);
    await expect(row(page, "admin")).toBeVisible();
    await expect(row(page, "plain")).toContainText("Plain User");
    await expect(page.getByRole("button", { name: "edit user" })).toBeDisabled();
    await expect(page.getByRole("button", { name: "remove user" })).toBeDisabled();

    await row(page, "plain").click();
    await expect(row(page, "plain")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("button", { name: "edit user" })).toBeEnabled();
    await expect(page.getByRole("button", { name: "remove user" })).toBeEnabled();
    await shot(page, "users-selected");

    // A second click clears the selection; another row moves it.
    await row(page, "plain").click();
    await expect(page.getByRole("button", { name: "edit user" })).toBeDisabled();
    await row(page, "solo").click();
    await row(page, "admin").click();
    await expect(page.locator("tr[aria-selected=true]")).toHaveCount(1);
  });

  test("creates a user through 'Add new user', checking each field", async ({ page }) => {
    await page.goto("/usermanagement");
    await page.getByRole("button", { name: "add user" }).click();
    const modal = page.getByRole("dialog", { name: "Add new user" });
    await expect(modal).toBeVisible();
    const ok = modal.getByRole("button", { name: "create user" });
    await expect(ok).toBeDisabled();
    // The super administrator sees the 'is admin' checkbox.
    await expect(modal.getByLabel("is admin")).toBeVisible();

    await modal.getByLabel("Username").fill("ADMIN");
    await expect(modal.getByText("username unavailable")).toBeVisible();
    await modal.getByLabel("Username").fill("");
    await expect(modal.getByText("required field")).toBeVisible();
    await modal.getByLabel("Display name").fill(" ");
    await modal.getByLabel("Email").fill("");
    await shot(page, "users-add-required");
    await modal.getByLabel("Username").fill("e2e-jane");
    await modal.getByLabel("Display name").fill("Jane E2E");
    await modal.getByLabel("Email").fill("jane@example.com");
    await modal.getByLabel("Password", { exact: true }).fill("jane-password-1");
    await modal.getByLabel("Repeat password").fill("jane-password-2");
    await expect(modal.getByText("passwords must match")).toBeVisible();
    await expect(ok).toBeDisabled();
    await shot(page, "users-add-validation");
    await modal.getByLabel("Repeat password").fill("");
    await expect(modal.getByText("required fields")).toBeVisible();
    await modal.getByLabel("Repeat password").fill("jane-password-1");
    await expect(modal.getByText("passwords must match")).toHaveCount(0);
    await shot(page, "users-add-modal");
    await expect(ok).toBeEnabled();
    await ok.click();

    await expect(modal).toHaveCount(0);
    await expect(row(page, "e2e-jane").getByRole("cell")).toHaveText([
      "e2e-jane",
      "Jane E2E",
      "jane@example.com",
      "no",
    ]);

    await signOut(page);
    await signIn(page, { username: "e2e-jane", password: "jane-password-1" });
    await expect(page.getByRole("button", { name: "Administration" })).toHaveCount(0);
  });

  test("shows the server's message in the modal: a removed user's name stays taken", async ({
    page,
    request,
  }) => {
    await createUser(request, "e2e-former", "former-password-1");
    const removed = await request.post("/api/removeuser", {
      headers: FROM_PAGE,
      data: { username: "e2e-former" },
    });
    expect(removed.ok()).toBe(true);

    await page.goto("/usermanagement");
    await page.getByRole("button", { name: "add user" }).click();
    const modal = page.getByRole("dialog", { name: "Add new user" });
    await modal.getByLabel("Username").fill("e2e-former");
    await modal.getByLabel("Display name").fill("Former Person");
    await modal.getByLabel("Email").fill("former@example.com");
    await modal.getByLabel("Password", { exact: true }).fill("long-enough-1");
    await modal.getByLabel("Repeat password").fill("long-enough-1");
    await modal.getByRole("button", { name: "create user" }).click();
    await expect(modal.getByTestId("user-form-error")).toHaveText("username unavailable");
    await expect(modal).toBeVisible();
    await shot(page, "users-add-error");
  });

  test("edits a user and sets a new password", async ({ page, request }) => {
    await createUser(request, "e2e-edit", "first-password-1");
    await page.goto("/usermanagement");
    await row(page, "e2e-edit").click();
    await page.getByRole("button", { name: "edit user" }).click();
    const modal = page.getByRole("dialog", { name: "Edit user" });
    await expect(modal.getByLabel("Username")).toHaveValue("e2e-edit");
    await expect(modal.getByLabel("Username")).not.toBeEditable();
    await expect(modal.getByLabel("Display name")).toHaveValue("e2e-edit Person");
    await expect(modal.getByLabel("Password", { exact: true })).toHaveCount(0);

    await modal.getByLabel("Display name").fill("");
    await expect(modal.getByText("required field")).toBeVisible();
    await expect(modal.getByRole("button", { name: "save changes" })).toBeDisabled();
    await modal.getByLabel("Display name").fill("Edited Person");
    await modal.getByLabel("edit password").check();
    await expect(modal.getByRole("button", { name: "save changes" })).toBeDisabled();
    await modal.getByLabel("Password", { exact: true }).fill("second-password-2");
    await modal.getByLabel("Repeat password").fill("second-password-2");
    await shot(page, "users-edit-modal");

    const sent = page.waitForRequest("**/api/updateuser");
    await modal.getByRole("button", { name: "save changes" }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      username: "e2e-edit",
      name: "Edited Person",
      password: "second-password-2",
    });
    await expect(modal).toHaveCount(0);
    await expect(row(page, "e2e-edit")).toContainText("Edited Person");

    await signOut(page);
    await signIn(page, { username: "e2e-edit", password: "second-password-2" });
  });

  test("sends password null when 'edit password' is not ticked", async ({ page, request }) => {
    await createUser(request, "e2e-keep", "keep-password-1");
    await page.goto("/usermanagement");
    await row(page, "e2e-keep").dblclick();
    const modal = page.getByRole("dialog", { name: "Edit user" });
    await modal.getByLabel("Email").fill("kept@example.com");
    const sent = page.waitForRequest("**/api/updateuser");
    await modal.getByRole("button", { name: "save changes" }).click();
    expect((await sent).postDataJSON()).toMatchObject({
      password: null,
      email: "kept@example.com",
    });
    await expect(row(page, "e2e-keep")).toContainText("kept@example.com");
  });

  test("removes a user after confirmation", async ({ page, request }) => {
    await createUser(request, "e2e-leaver", "leaver-password-1");
    await page.goto("/usermanagement");
    await row(page, "e2e-leaver").click();
    await page.getByRole("button", { name: "remove user" }).click();
    const modal = page.getByRole("dialog", { name: "Remove user" });
    await expect(modal).toContainText("Are you sure you want to remove user e2e-leaver Person?");
    await shot(page, "users-remove-modal");
    await modal.getByRole("button", { name: "remove user" }).click();
    await expect(modal).toHaveCount(0);
    await expect(row(page, "e2e-leaver")).toHaveCount(0);
    await expect(page.getByRole("button", { name: "remove user" })).toBeDisabled();

    await signOut(page);
    await page.getByLabel("Username").fill("e2e-leaver");
    await page.getByLabel("Password").fill("leaver-password-1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("login-error")).toHaveText("Invalid username or password");
  });

  test("the server's refusal to remove oneself shows in the modal", async ({ page }) => {
    await page.goto("/usermanagement");
    await row(page, "admin").click();
    await page.getByRole("button", { name: "remove user" }).click();
    const modal = page.getByRole("dialog", { name: "Remove user" });
    await modal.getByRole("button", { name: "remove user" }).click();
    await expect(modal.getByTestId("remove-user-error")).toHaveText("You cannot remove yourself");
    await shot(page, "users-remove-error");
    await modal.getByRole("button", { name: "Cancel" }).click();
    await expect(row(page, "admin")).toBeVisible();
  });
});

test.describe("user management for others", () => {
  test("a user who is not an administrator has no Administration menu and is sent home", async ({
    page,
  }) => {
    await signIn(page, plain);
    await expect(page.getByTestId("nav-user")).toBeVisible();
    await expect(page.getByRole("button", { name: "Administration" })).toHaveCount(0);
    for (const path of ["/usermanagement", "/rolemanagement"]) {
      await page.goto(path);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByTestId("users-table")).toHaveCount(0);
    }
  });
});
