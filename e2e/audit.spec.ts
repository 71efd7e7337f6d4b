import {
  type APIRequestContext,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from "@playwright/test";
import { personWithRole } from "./support/api.ts";
import { signIn } from "./support/app.ts";
import { downloadWorkbook } from "./support/downloads.ts";
import { shot } from "./support/screenshots.ts";
import { admin, REFERENCE, solo } from "./support/users.ts";

/**
 * The security audit trail: an administrator opens it from the Administration menu, filters it by
 * user and event, pages through it and exports it; nobody else reaches it. Each test works with a
 * user of its own, so the other specs' events only add rows the filters leave out.
 */

const run = Date.now().toString(36).slice(-5);

let adminApi: APIRequestContext;
test.beforeAll(async () => {
  // The administrator's calls carry the Origin a page of the application sends with its changes.
  const origin = process.env.E2E_BASE_URL ?? "";
  adminApi = await playwrightRequest.newContext({ baseURL: origin, extraHTTPHeaders: { origin } });
  const login = await adminApi.post("/auth/login", { form: { ...admin } });
  expect(login.ok(), await login.text()).toBe(true);
});

/** The Audit trail page, opened as a person would: Administration, then Audit trail. */
async function openAuditTrail(page: Page): Promise<void> {
  await signIn(page, admin);
  await page.getByRole("button", { name: "Administration" }).click();
  await page.getByRole("link", { name: "Audit trail", exact: true }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
}

const rows = (page: Page) => page.getByTestId("audit-row");

test.describe("Audit trail", () => {
  test("shows a user's sign-ins, refused sign-in and role, filtered by user and event", async ({
    page,
  }) => {
    const username = `aud-${run}`;
    // Made by the administrator through the API: created, granted a role, signed in.
    await personWithRole(adminApi, { username, context: REFERENCE.name, role: "steward" });
    const refused = await adminApi.post("/auth/login", {
      form: { username, password: "not-the-password-1" },
    });
    expect(refused.status()).toBe(401);

    await openAuditTrail(page);
    await expect(page.getByTestId("audit-table").locator("thead th")).toHaveText([
      "When",
      "Event",
      "Who",
      "Subject",
      "From",
      "Details",
    ]);

    await page.getByLabel("User").fill(username);
    await expect(rows(page)).toHaveCount(4);
    await expect(rows(page).locator("td:nth-child(2)")).toHaveText([
      "Sign-in refused",
      "Signed in",
      "Role granted",
      "User created",
    ]);
    await expect(page.getByTestId("audit-position")).toHaveText("1 - 4 of 4 results");
    const granted = rows(page).nth(2);
    await expect(granted.locator("td").nth(2)).toHaveText(admin.username);
    await expect(granted.locator("td").nth(3)).toHaveText(username);
    await expect(granted.locator("td").nth(5)).toHaveText("role: steward; context: reference");
    await expect(rows(page).first().locator("td").nth(5)).toHaveText(
      "method: password; reason: wrong password",
    );

    await page.getByLabel("Event").selectOption({ label: "Role granted" });
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).locator("td").nth(1)).toHaveText("Role granted");
    await shot(page, "audit-trail");

    await page.getByLabel("Event").selectOption({ label: "Password reset" });
    await expect(page.getByTestId("audit-empty")).toHaveText("No events match these filters");
  });

  test("names the command line as who made the test users", async ({ page }) => {
    await openAuditTrail(page);
    await page.getByLabel("User").fill(solo.username);
    await page.getByLabel("Event").selectOption({ label: "User created" });
    await expect(rows(page)).toHaveCount(1);
    await expect(rows(page).locator("td").nth(2)).toHaveText("cli");
    await expect(rows(page).locator("td").nth(4)).toHaveText("cli");
  });

  test("exports the filtered events as a workbook with the page's columns", async ({
    page,
  }, testInfo) => {
    const username = `aud-x-${run}`;
    await personWithRole(adminApi, { username, context: REFERENCE.name, role: "viewer" });
    await openAuditTrail(page);
    await page.getByLabel("User").fill(username);
    await expect(rows(page)).toHaveCount(3);
    const { name, workbook } = await downloadWorkbook(page, testInfo, () =>
      page.getByRole("button", { name: "Export xlsx" }).click(),
    );
    expect(name).toMatch(/^Report_.*\.xlsx$/);
    const sheet = workbook.worksheets[0];
    expect(sheet?.getRow(1).values).toEqual([
      undefined,
      "When",
      "Event",
      "Who",
      "Subject",
      "From",
      "Details",
    ]);
    expect(sheet?.rowCount).toBe(4);
    expect(sheet?.getColumn(2).values.slice(2)).toEqual([
      "sign-in",
      "role-granted",
      "user-created",
    ]);
  });

  test("is not offered to a user who is not an administrator, and sends them home", async ({
    page,
  }) => {
    await signIn(page, solo);
    await expect(page.getByTestId("nav-admin")).toHaveCount(0);
    await page.goto("/audit");
    await expect(page).toHaveURL(/\/$/);
  });
});
