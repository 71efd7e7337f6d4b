import { expect, type Page } from "@playwright/test";
import { type Credentials, contextSelect, signIn } from "./app.ts";
import { REFERENCE } from "./users.ts";

/** Signs in a user of 'Reference Data' only and opens the pending changes of one of its types. */
export async function openPendingOf(page: Page, user: Credentials, typeUiName: string) {
  await signIn(page, user);
  // A user of a single application has it chosen already.
  await expect(contextSelect(page).locator("option:checked")).toHaveText(REFERENCE.uiName);
  await page.getByTestId("nav-pending").click();
  await expect(page).toHaveURL(/\/pending\?context=reference$/);
  await expect(page.getByTestId("pending-overview")).toBeVisible();
  await page
    .getByTestId("type-sidenav")
    .getByRole("button", { name: new RegExp(typeUiName) })
    .click();
  await expect(page.getByTestId("pending-title")).toHaveText(typeUiName);
}
