import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { type Person, personWithRole, post, signedIn } from "./support/api.ts";
import { openUserMenu, signIn } from "./support/app.ts";
import { shot } from "./support/screenshots.ts";
import { admin, REFERENCE } from "./support/users.ts";

/**
 * API tokens: the 'My tokens' page (create, the secret shown once, revoke), a token used from a
 * script as `Authorization: Bearer`, and the 'API tokens' section of User management. Each test
 * works with its own users, so the other specs' data and counts stay as they were.
 */

const run = Date.now().toString(36).slice(-5);

const EXPLANATION =
  "Personal access tokens let scripts and pipelines call Ledgerline as you. A read token can only read; a write token can also save, delete, approve, upload and publish, within your own rights.";
const COPY_NOW = "Copy this token now: it will not be shown again.";
const revokeQuestion = (name: string) =>
  `Revoke token ${name}? Scripts using it stop working at once.`;

interface ApiTokenList {
  maxDays: number;
  tokens: { tokenId: number; name: string; revokedAt: string | null }[];
}

let adminApi: APIRequestContext;
let maxDays: number;

test.beforeAll(async () => {
  adminApi = await signedIn(admin.username, admin.password);
  maxDays = (await post<ApiTokenList>(adminApi, "/api/tokens/list", {})).maxDays;
});

/** A steward of 'Reference Data': allowed to save there, so a refusal comes from the token. */
function steward(name: string): Promise<Person> {
  return personWithRole(adminApi, {
    username: `tok-${name}-${run}`,
    context: REFERENCE.name,
    role: "steward",
  });
}

/** One read of the currencies and one save attempt, as a pipeline would make them. */
function withToken(request: APIRequestContext, secret: string) {
  const headers = { Authorization: `Bearer ${secret}` };
  return {
    read: () =>
      request.post("/api/entity", {
        headers,
        data: { context: REFERENCE.name, entityType: "currency", pageSize: 1 },
      }),
    save: () =>
      request.post("/api/save", {
        headers,
        data: {
          context: REFERENCE.name,
          entityType: "currency",
          action: "create",
          record: { code: "ZZT", name: "Token test" },
        },
      }),
  };
}

function tokenRow(table: Locator, name: string): Locator {
  return table
    .getByRole("row")
    .filter({ has: table.page().getByRole("cell", { name, exact: true }) });
}

async function openMyTokens(page: Page): Promise<void> {
  await (await openUserMenu(page)).getByRole("link", { name: "My tokens" }).click();
  await expect(page).toHaveURL(/\/tokens$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("My tokens");
}

test.describe("My tokens", () => {
  test("a read token: created, its secret shown once, used as a bearer, then revoked", async ({
    page,
    context,
    request,
  }) => {
    const person = await steward("reader");
    await signIn(page, person);
    const link = (await openUserMenu(page)).getByRole("link", { name: "My tokens" });
    await expect(link).toHaveAttribute("href", "/tokens");
    await page.keyboard.press("Escape");
    await openMyTokens(page);
    await expect(page.getByTestId("tokens-page")).toContainText(EXPLANATION);
    await expect(page.getByText("No tokens yet")).toBeVisible();

    // The form: a name is required and the lifetime is capped at the server's maximum.
    const form = page.getByTestId("new-token");
    await expect(form.getByRole("heading")).toHaveText("New token");
    const create = form.getByRole("button", { name: "Create token" });
    const days = form.getByLabel("Expires in (days)");
    await expect(days).toHaveValue("30");
    await expect(days).toHaveAttribute("max", String(maxDays));
    await expect(form.getByText(`at most ${maxDays} days`, { exact: true })).toBeVisible();
    await expect(form.getByLabel("Scope").locator("option")).toHaveText(["read", "write"]);
    await expect(create).toBeDisabled();
    await form.getByLabel("Name").fill("nightly export");
    await expect(create).toBeEnabled();
    await days.fill(String(maxDays + 1));
    await expect(create).toBeDisabled();
    await expect(days).toHaveClass(/is-invalid/);
    await expect(days).toHaveAccessibleDescription(`at most ${maxDays} days`);
    await expect(form.getByText(`at most ${maxDays} days`)).toHaveCount(1);
    await days.fill("30");
    await form.getByLabel("Scope").selectOption("read");
    await create.click();

    // The secret, once.
    const alert = page.getByTestId("new-token-secret");
    await expect(alert).toContainText(COPY_NOW);
    const secretInput = alert.getByRole("textbox", { name: "New token" });
    await expect(secretInput).toHaveAttribute("readonly", "");
    await expect(secretInput).toHaveClass(/font-monospace/);
    const secret = await secretInput.inputValue();
    expect(secret).toMatch(/^llt_/);
    await expect(form.getByLabel("Name")).toHaveValue("");

    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await alert.getByRole("button", { name: "Copy" }).click();
    await expect(alert.getByRole("status")).toHaveText("Copied to the clipboard.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    const table = page.getByTestId("my-tokens");
    await expect(table.getByRole("columnheader")).toHaveText([
      "Name",
      "Scope",
      "Created",
      "Expires",
      "Last used",
      "Status",
      "Actions",
    ]);
    const row = tokenRow(table, "nightly export");
    const cells = row.getByRole("cell");
    await expect(cells.nth(1)).toHaveText("read");
    await expect(cells.nth(2)).toHaveText(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
    await expect(cells.nth(3)).toHaveText(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
    await expect(cells.nth(4)).toHaveText("never");
    await expect(cells.nth(5)).toHaveText("active");
    await shot(page, "tokens-secret");

    // A read token reads, and may not change anything.
    const api = withToken(request, secret);
    const read = await api.read();
    expect(read.status(), await read.text()).toBe(200);
    const save = await api.save();
    expect(save.status()).toBe(403);
    expect((await save.json()).message).toBe("A read token cannot make changes");

    await alert.getByRole("button", { name: "Done" }).click();
    await expect(alert).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    await page.reload();
    await expect(row.getByRole("cell").nth(5)).toHaveText("active");
    await expect(page.getByTestId("new-token-secret")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    // The read above was the token's first use.
    await expect(row.getByRole("cell").nth(4)).toHaveText(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
    await shot(page, "tokens-table");

    // Revoked after a confirmation: at once no longer accepted.
    await row.getByRole("button", { name: "Revoke" }).click();
    const modal = page.getByRole("dialog", { name: "Revoke token" });
    await expect(modal).toContainText(revokeQuestion("nightly export"));
    await shot(page, "tokens-revoke-confirm");
    await modal.getByRole("button", { name: "Revoke" }).click();
    await expect(modal).toHaveCount(0);
    await expect(row.getByRole("cell").nth(5)).toHaveText("revoked");
    await expect(row.getByRole("button", { name: "Revoke" })).toHaveCount(0);
    const refused = await api.read();
    expect(refused.status()).toBe(401);
  });

  test("cancelling the confirmation keeps the token", async ({ page }) => {
    const person = await steward("cancel");
    await post(person.api, "/api/tokens/create", {
      name: "kept",
      scope: "write",
      expiresInDays: 5,
    });
    await signIn(page, person);
    await openMyTokens(page);
    const row = tokenRow(page.getByTestId("my-tokens"), "kept");
    await expect(row.getByRole("cell").nth(1)).toHaveText("write");
    await row.getByRole("button", { name: "Revoke" }).click();
    const modal = page.getByRole("dialog", { name: "Revoke token" });
    await modal.getByRole("button", { name: "Cancel" }).click();
    await expect(modal).toHaveCount(0);
    await expect(row.getByRole("cell").nth(5)).toHaveText("active");
    const list = await post<ApiTokenList>(person.api, "/api/tokens/list", {});
    expect(list.tokens.map((t) => [t.name, t.revokedAt])).toEqual([["kept", null]]);
  });

  test("the server's refusal is shown in a danger alert and no secret appears", async ({
    page,
  }) => {
    const person = await steward("refused");
    await signIn(page, person);
    await openMyTokens(page);
    // Past the form's own check, as an outdated page would send it.
    await page.route("**/api/tokens/create", (route) =>
      route.continue({
        postData: JSON.stringify({ ...route.request().postDataJSON(), expiresInDays: maxDays + 1 }),
      }),
    );
    const form = page.getByTestId("new-token");
    await form.getByLabel("Name").fill("too long");
    await form.getByRole("button", { name: "Create token" }).click();
    const error = form.getByTestId("token-error");
    await expect(error).toHaveText(`A token may live at most ${maxDays} days`);
    await expect(error).toHaveClass(/alert-danger/);
    await expect(page.getByTestId("new-token-secret")).toHaveCount(0);
    await expect(page.getByText("No tokens yet")).toBeVisible();
    await shot(page, "tokens-refused");
  });
});

test.describe("API tokens in User management", () => {
  test("an administrator sees another user's token and revokes it", async ({ page, request }) => {
    const person = await steward("pipeline");
    const created = await post<{ secret: string }>(person.api, "/api/tokens/create", {
      name: `pipeline ${run}`,
      scope: "write",
      expiresInDays: 7,
    });
    const api = withToken(request, created.secret);
    expect((await api.read()).status()).toBe(200);

    await signIn(page, admin);
    await page.getByRole("button", { name: "Administration" }).click();
    await page.getByRole("link", { name: "User management" }).click();
    await expect(page).toHaveURL(/\/usermanagement$/);
    // The screen's other sections stay.
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("User management");
    await expect(page.getByTestId("users-table")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Notification settings" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Undelivered messages" })).toBeVisible();

    const section = page.getByTestId("api-tokens-section");
    await expect(section.getByRole("heading")).toHaveText("API tokens");
    const table = section.getByTestId("all-tokens");
    await expect(table.getByRole("columnheader")).toHaveText([
      "User",
      "Name",
      "Scope",
      "Created",
      "Expires",
      "Last used",
      "Status",
      "Actions",
    ]);
    const row = tokenRow(table, `pipeline ${run}`);
    const cells = row.getByRole("cell");
    await expect(cells.nth(0)).toHaveText(person.username);
    await expect(cells.nth(2)).toHaveText("write");
    await expect(cells.nth(5)).toHaveText(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}$/);
    await expect(cells.nth(6)).toHaveText("active");
    await row.scrollIntoViewIfNeeded();
    await shot(page, "admin-api-tokens");

    await row.getByRole("button", { name: "Revoke" }).click();
    const modal = page.getByRole("dialog", { name: "Revoke token" });
    await expect(modal).toContainText(revokeQuestion(`pipeline ${run}`));
    await expect(modal).toContainText(`User: ${person.username}`);
    await modal.getByRole("button", { name: "Revoke" }).click();
    await expect(modal).toHaveCount(0);
    await expect(cells.nth(6)).toHaveText("revoked");
    await expect(row.getByRole("button", { name: "Revoke" })).toHaveCount(0);
    await row.scrollIntoViewIfNeeded();
    await shot(page, "admin-api-tokens-revoked");

    expect((await api.read()).status()).toBe(401);
    const own = await post<ApiTokenList>(person.api, "/api/tokens/list", {});
    expect(own.tokens[0]?.revokedAt).not.toBeNull();
  });

  test("without any token the section says 'No API tokens'", async ({ page }) => {
    await page.route("**/api/tokens/all", (route) =>
      route.fulfill({ json: { maxDays, tokens: [] } }),
    );
    await signIn(page, admin);
    await page.goto("/usermanagement");
    const section = page.getByTestId("api-tokens-section");
    await expect(section.getByText("No API tokens", { exact: true })).toBeVisible();
    await expect(section.getByRole("table")).toHaveCount(0);
  });
});
