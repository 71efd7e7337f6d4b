import { expect, type Locator, type Page } from "@playwright/test";

export interface Credentials {
  username: string;
  password: string;
}

/** Signs in through the login screen, as a person would, and waits for the home page. */
export async function signIn(page: Page, user: Credentials): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("nav-user")).toHaveText(`[User: ${user.username}]`);
}

/** Opens the user menu ('[User: <name>]'): My account, Notifications, My tokens and the theme. */
export async function openUserMenu(page: Page): Promise<Locator> {
  const toggle = page.locator("header").getByRole("button", { name: /^\[User: / });
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  return page.locator("header");
}

/** The 'Application' selector of the navigation bar (screens may have their own). */
export function contextSelect(page: Page): Locator {
  return page.locator("header").getByLabel("Application");
}

/** Picks an application by the name the user sees. */
export async function chooseContext(page: Page, uiName: string): Promise<void> {
  const select = contextSelect(page);
  await expect(select.getByRole("option", { name: uiName })).toBeAttached();
  await select.selectOption({ label: uiName });
  await expect(select.locator("option:checked")).toHaveText(uiName);
}

/** The main navigation links of the top bar. */
export function mainNav(page: Page): Locator {
  return page.getByRole("navigation", { name: "Main" });
}
