import path from "node:path";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { FROM_PAGE } from "./support/api.ts";
import { signIn } from "./support/app.ts";
import { admin, REFERENCE } from "./support/users.ts";

// Review screenshots, taken only when E2E_SCREENSHOTS names a folder.
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

const newcomer = { username: "e2e-newcomer", password: "newcomer-password-1" };

async function createUser(request: APIRequestContext, user: typeof newcomer): Promise<void> {
  const login = await request.post("/auth/login", {
    form: { username: admin.username, password: admin.password },
  });
  expect(login.ok()).toBe(true);
  const res = await request.post("/api/createuser", {
    headers: FROM_PAGE,
    data: { ...user, name: "New Comer", email: "newcomer@example.com", isadmin: false },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Opens role management and picks the user and the application. */
async function openRoles(page: Page, username: string, uiName: string): Promise<void> {
  await page.getByRole("button", { name: "Administration" }).click();
  await page.getByRole("link", { name: "Role management" }).click();
  await expect(page).toHaveURL(/\/rolemanagement$/);
  const main = page.getByRole("main");
  await expect(main.getByTestId("role-pick-prompt")).toBeVisible();
  await main.getByLabel("User").selectOption(username);
  await main.getByLabel("Application").selectOption({ label: uiName });
}

test("assigning a role gives the user the application; removing it takes it away", async ({
  page,
  request,
}) => {
  await createUser(request, newcomer);
  await signIn(page, admin);
  await openRoles(page, newcomer.username, REFERENCE.uiName);

  const held = page.getByTestId("user-roles");
  const available = page.getByTestId("available-roles");
  await expect(held.getByRole("heading")).toHaveText(`Roles of ${newcomer.username}`);
  await expect(available.getByRole("heading")).toHaveText("Available roles");
  await expect(held).toContainText("No roles in this application");
  await expect(available.getByRole("button")).toHaveText(["Viewer", "Steward", "Approver"]);
  await expect(page.getByRole("button", { name: "add", exact: true })).toBeDisabled();
  await expect(page.getByRole("button", { name: "remove", exact: true })).toBeDisabled();

  await available.getByRole("button", { name: "Steward" }).click();
  await expect(page.getByTestId("role-description")).toHaveText(
    "Steward: Reads, creates, edits and deletes reference data",
  );
  await expect(page.getByRole("button", { name: "remove", exact: true })).toBeDisabled();
  await shot(page, "roles-selected");
  await page.getByRole("button", { name: "add", exact: true }).click();
  await expect(held.getByRole("button")).toHaveText(["Steward"]);
  await expect(available.getByRole("button")).toHaveText(["Viewer", "Approver"]);
  await expect(page.getByRole("button", { name: "remove", exact: true })).toBeEnabled();
  await shot(page, "roles-added");

  await signOut(page);
  await signIn(page, newcomer);
  // The only application is chosen by itself.
  await expect(page.getByTestId("context-select").locator("option:checked")).toHaveText(
    REFERENCE.uiName,
  );
  await expect(page.getByRole("button", { name: "Administration" })).toHaveCount(0);

  await signOut(page);
  await signIn(page, admin);
  await openRoles(page, newcomer.username, REFERENCE.uiName);
  await held.getByRole("button", { name: "Steward" }).click();
  await page.getByRole("button", { name: "remove", exact: true }).click();
  await expect(held).toContainText("No roles in this application");
  await expect(available.getByRole("button")).toHaveText(["Viewer", "Steward", "Approver"]);

  await signOut(page);
  await signIn(page, newcomer);
  await expect(page.getByText("Please select an application")).toBeVisible();
  await expect(
    page.getByTestId("context-select").getByRole("option", { name: REFERENCE.uiName }),
  ).toHaveCount(0);
});

test("lists every application and shows the roles an administrator holds", async ({ page }) => {
  await signIn(page, admin);
  await openRoles(page, admin.username, "Data Dictionary");
  const main = page.getByRole("main");
  await expect(main.getByLabel("Application").getByRole("option")).toHaveText([
    "Select an application",
    "Data Dictionary",
    "Reference Data",
  ]);
  await expect(page.getByTestId("user-roles").getByRole("button")).toHaveText([
    "Dictionary viewer",
    "Dictionary editor",
  ]);
  await expect(page.getByTestId("available-roles")).toContainText("No other roles");
  await expect(page.getByTestId("role-description")).toHaveText(
    "Select a role to see its description.",
  );
});
