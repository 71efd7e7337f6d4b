import path from "node:path";
import type { EntityList } from "@ledgerline/contract";
import { expect, type Page, test } from "@playwright/test";
import { FROM_PAGE } from "./support/api.ts";
import { signIn } from "./support/app.ts";
import { admin, plain, REFERENCE } from "./support/users.ts";

// Review screenshots, taken only when E2E_SCREENSHOTS names a folder.
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** Opens a tab of the console, runs it and answers its result area. */
async function runTab(page: Page, title: string, id: string) {
  await page.getByRole("tab", { name: title, exact: true }).click();
  const panel = page.getByTestId(`dev-tab-${id}`);
  await expect(panel).toBeVisible();
  await panel.getByRole("button", { name: "Run" }).click();
  return page.getByTestId(`dev-result-${id}`);
}

test.describe("developer console", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
    await page.getByRole("button", { name: "Developer" }).click();
    await page.getByRole("link", { name: "Developer Console" }).click();
    await expect(page).toHaveURL(/\/DevConsole$/);
    await expect(page.getByRole("heading", { name: "Developer console" })).toBeVisible();
    await page.getByLabel("Context", { exact: true }).selectOption({ label: REFERENCE.uiName });
  });

  test("offers every call of SPEC as a tab and links the API reference", async ({ page }) => {
    await expect(page.getByRole("tab")).toHaveText([
      "Get File Layouts",
      "Get Entity Types",
      "Get Entity Type",
      "Get Data",
      "Get Entity By Key",
      "Get Reference Entity List",
      "Get Pending Summary",
      "Get Pending",
      "Get actions",
    ]);
    const docs = page.getByRole("link", { name: "API reference" });
    await expect(docs).toHaveAttribute("href", "/api/docs");
    const answer = await page.request.get("/api/docs");
    expect(answer.status()).toBe(200);
    await shot(page, "devconsole-start");
  });

  test("shows the entity types of 'Reference Data' as JSON", async ({ page }) => {
    const result = await runTab(page, "Get Entity Types", "entitytypes");
    const json = result.getByTestId("dev-result-entitytypes-json");
    await expect(json).toContainText('"currency"');
    await expect(json).toContainText('"canread": true');
    await expect(page.getByTestId("dev-request-entitytypes")).toContainText(
      `/api/entitytypes{"context":"${REFERENCE.name}"}`,
    );
    const font = await json.evaluate((el) => getComputedStyle(el).fontFamily);
    expect(font).toMatch(/mono/i);
    await shot(page, "devconsole-entitytypes");
    await page.setViewportSize({ width: 760, height: 900 });
    await expect(json).toBeVisible();
    await shot(page, "devconsole-narrow");
  });

  test("gets data, and only discontinued rows when 'show active' is unchecked", async ({
    page,
  }) => {
    // A discontinued currency of this test's own (other tests change currencies meanwhile).
    const code = `D${Date.now().toString(36).slice(-5).toUpperCase()}`;
    const saved = await page.request.post("/api/save", {
      headers: FROM_PAGE,
      data: {
        context: REFERENCE.name,
        entityType: "currency",
        action: "create",
        record: { code, name: "Discontinued test", minor_units: 2, active: false },
      },
    });
    expect(saved.ok(), await saved.text()).toBe(true);
    const { entityKeyID } = (await saved.json()) as { entityKeyID: number };
    const deleted = await page.request.post("/api/delete", {
      headers: FROM_PAGE,
      data: { context: REFERENCE.name, entityType: "currency", entityKeyIds: [entityKeyID] },
    });
    expect(deleted.ok(), await deleted.text()).toBe(true);

    const result = await runTab(page, "Get Data", "data");
    const json = result.getByTestId("dev-result-data-json");
    await expect(json).toContainText('"querySize"');
    await expect(json).toContainText('"isDeleted": false');
    await shot(page, "devconsole-data");

    const panel = page.getByTestId("dev-tab-data");
    await panel.getByLabel("show discontinued").check();
    await panel.getByLabel("show active").uncheck();
    await panel.getByLabel("Page size").fill("0");
    await expect(page.getByTestId("dev-request-data")).toContainText(
      '"includeDeleted":true,"onlyDeleted":true',
    );
    await panel.getByRole("button", { name: "Run" }).click();
    // The server answers the discontinued rows alone (page size 0: all of them), ours among them.
    await expect(json).toContainText('"isDeleted": true');
    await expect(json).not.toContainText('"isDeleted": false');
    const shown = JSON.parse((await json.textContent()) ?? "{}") as EntityList;
    expect(shown.data.map((r) => r.keyAttrValues.code)).toContain(code);

    await panel.getByLabel("show discontinued").uncheck();
    await expect(panel.getByRole("button", { name: "Run" })).toBeDisabled();
    await expect(page.getByTestId("dev-request-data")).toHaveText(
      "Show active rows, discontinued rows or both",
    );
  });

  test("finds a record by key and lists a reference pick list", async ({ page }) => {
    const list = await runTab(page, "Get Reference Entity List", "reflist");
    await expect(list.getByTestId("dev-result-reflist-json")).toContainText('"label"');
    const text = await list.getByTestId("dev-result-reflist-json").textContent();
    const firstKey = (JSON.parse(text ?? "") as { data: { entityKeyID: number }[] }).data[0]
      .entityKeyID;

    await page.getByRole("tab", { name: "Get Entity By Key", exact: true }).click();
    const panel = page.getByTestId("dev-tab-bykey");
    await expect(panel.getByRole("button", { name: "Run" })).toBeDisabled();
    await panel.getByLabel("entityKeyID").fill(String(firstKey));
    await panel.getByRole("button", { name: "Run" }).click();
    await expect(page.getByTestId("dev-result-bykey-json")).toContainText(
      `"entityKeyID": ${firstKey}`,
    );
  });

  test("runs the pending, summary, layout, type and action calls", async ({ page }) => {
    for (const [title, id, expected] of [
      ["Get File Layouts", "filelayouts", '"showDeleteMissing"'],
      ["Get Entity Type", "entitytype", '"attributes"'],
      ["Get Pending Summary", "pendingsummary", "["],
      ["Get Pending", "pending", '"querySize"'],
      ["Get actions", "actions", "["],
    ] as const) {
      const result = await runTab(page, title, id);
      await expect(result).toHaveAttribute("data-ok", "true");
      await expect(result.getByTestId(`dev-result-${id}-json`)).toContainText(expected);
    }
    await expect(page.getByTestId("dev-request-pending")).toContainText('"requirePending":true');
  });

  test("shows the status and message of a failed call", async ({ page }) => {
    await page.route("**/api/actions", (route) =>
      route.fulfill({
        status: 404,
        contentType: "application/json",
        body: JSON.stringify({ message: "Unknown entity type 'nothing'" }),
      }),
    );
    const result = await runTab(page, "Get actions", "actions");
    await expect(result).toHaveAttribute("data-ok", "false");
    await expect(result.getByTestId("dev-result-actions-error")).toHaveText(
      "HTTP 404: Unknown entity type 'nothing'",
    );
    await shot(page, "devconsole-error");
  });
});

test("a user who is not a developer has no Developer menu and is sent away from /DevConsole", async ({
  page,
}) => {
  await signIn(page, plain);
  await expect(page.getByRole("button", { name: "Developer" })).toHaveCount(0);
  await page.goto("/DevConsole");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("dev-console")).toHaveCount(0);
  // The API reference is the server's to refuse.
  expect((await page.request.get("/api/docs")).status()).toBe(403);
});
