import path from "node:path";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { FROM_PAGE } from "./support/api.ts";
import { chooseContext, mainNav, signIn } from "./support/app.ts";
import {
  createSourceDatabase,
  keysByLabel,
  makeDictionaryFixture,
  readRecord,
  uniqueName,
  writeConnectionFile,
} from "./support/dictionary.ts";
import { admin, DICTIONARY, dictionaryReader, REFERENCE } from "./support/users.ts";

const REMOVE_TEXT =
  "Please confirm that you want to remove the selected item from the data repository. (removed items can still be viewed)";

/** Review screenshots, taken only with E2E_SCREENSHOTS set (as in screenshots.spec.ts). */
async function snap(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `dictionary-${name}.png`), fullPage: true });
}

async function openList(page: Page): Promise<void> {
  await signIn(page, admin);
  await chooseContext(page, DICTIONARY.uiName);
  await mainNav(page).getByRole("link", { name: "System environments", exact: true }).click();
  await expect(page).toHaveURL(/\/system-environment\?context=Data\+Dictionary$/);
  await expect(
    page.getByRole("heading", { name: "System Environments", exact: true }),
  ).toBeVisible();
  await expect(page.getByRole("heading", { name: "Metadata Sources", exact: true })).toBeVisible();
}

const toast = (page: Page, title: string): Locator =>
  page.getByTestId("toast").filter({ has: page.getByText(title, { exact: true }) });

const environmentRow = (page: Page, name: string): Locator =>
  page.getByTestId("system-environment-row").filter({ hasText: name });

const sourceRow = (page: Page, name: string): Locator =>
  page.getByTestId("metadata-source-row").filter({ hasText: name });

test.describe("system environments", () => {
  test("a new system environment is checked field by field and saved with the fixed extras", async ({
    page,
  }) => {
    const file = `${uniqueName("form")}.conf`;
    writeConnectionFile(file, "postgres");
    await openList(page);
    const taken = await makeDictionaryFixture(page.request);
    await snap(page, "01-list");

    await page.getByTestId("create-system-environment").click();
    await expect(page).toHaveURL(/\/system-environment\/create\?context=Data\+Dictionary$/);
    await expect(page.getByRole("heading", { name: "New System Environment" })).toBeVisible();
    const save = page.getByTestId("form-save");
    await expect(save).toBeDisabled();

    const name = page.getByLabel("Name");
    await name.fill("x");
    await name.fill("");
    await expect(page.getByTestId("environment-name-error")).toHaveText("required field");
    await name.fill(taken.environment);
    await expect(page.getByTestId("environment-name-error")).toHaveText(
      "A system environment with that name already exists",
    );
    await snap(page, "02-environment-name-taken");
    const environment = uniqueName("env");
    await name.fill(environment);
    await expect(page.getByTestId("environment-name-error")).toHaveCount(0);

    await page.getByLabel("Description").fill("Warehouse of the e2e test");
    await expect(save).toBeDisabled();
    const technology = page.getByLabel("Technology");
    await expect(technology.locator("option:not([disabled])")).toHaveText([
      "postgres",
      "mariadb",
      "mysql",
    ]);
    await technology.selectOption("postgres");
    await expect(save).toBeDisabled();
    await page.getByLabel("Connection File").selectOption(file);
    await expect(save).toBeEnabled();

    const editions = await keysByLabel(page.request, "edition");
    const request = page.waitForRequest((r) => r.url().endsWith("/api/save"));
    await save.click();
    const body = (await request).postDataJSON();
    expect(body).toMatchObject({
      context: DICTIONARY.name,
      entityType: "systemenvironment",
      action: "create",
      record: {
        name: environment,
        description: "Warehouse of the e2e test",
        technology: "postgres",
        connectionfile: file,
        intro: null,
        edition: editions.get("import"),
        uisequence: 1,
        editiondetail: null,
      },
    });

    await expect(page).toHaveURL(/\/system-environment\?context=Data\+Dictionary$/);
    await expect(toast(page, "Saved")).toContainText(environment);
    const row = environmentRow(page, environment);
    await expect(row.locator("td")).toHaveText([
      environment,
      "Warehouse of the e2e test",
      "postgres",
      file,
      "edit",
    ]);
  });

  test("Cancel leaves the form for the list without saving", async ({ page }) => {
    await openList(page);
    await page.getByTestId("create-system-environment").click();
    const name = uniqueName("cancelled");
    await page.getByLabel("Name").fill(name);
    await page.getByTestId("form-cancel").click();
    await expect(page).toHaveURL(/\/system-environment\?context=Data\+Dictionary$/);
    await expect(page.getByTestId("system-environments")).toBeVisible();
    await expect(environmentRow(page, name)).toHaveCount(0);
  });

  test("an environment with metadata sources cannot be deleted; without them it can", async ({
    page,
  }) => {
    await openList(page);
    const fixture = await makeDictionaryFixture(page.request, { source: true });
    await page.reload();

    await environmentRow(page, fixture.environment).getByTestId("edit-system-environment").click();
    await expect(page).toHaveURL(
      new RegExp(`/system-environment/edit/${fixture.environmentId}\\?context=Data\\+Dictionary$`),
    );
    await expect(page.getByRole("heading", { name: "Edit System Environment" })).toBeVisible();
    await expect(page.getByLabel("Name")).toHaveValue(fixture.environment);
    await expect(page.getByLabel("Name")).not.toBeEditable();
    const remove = page.getByTestId("form-delete");
    await expect(remove).toBeDisabled();
    await page.getByTestId("delete-blocked-hint").hover();
    await expect(page.getByRole("tooltip")).toHaveText(
      "Cannot delete this system environment as it has dependant metadata sources",
    );
    await snap(page, "03-environment-edit-blocked");

    // An edit is saved as the changed fields plus the fixed extras.
    await page.getByLabel("Description").fill("Described again");
    const request = page.waitForRequest((r) => r.url().endsWith("/api/save"));
    await page.getByTestId("form-save").click();
    const record = (await request).postDataJSON().record;
    expect(record).toMatchObject({
      entityKeyID: fixture.environmentId,
      description: "Described again",
      uisequence: 1,
      intro: null,
      editiondetail: null,
    });
    expect(record).not.toHaveProperty("name");
    await expect(environmentRow(page, fixture.environment).locator("td").nth(1)).toHaveText(
      "Described again",
    );

    // The source goes first, through its own edit page.
    await sourceRow(page, fixture.source ?? "")
      .getByTestId("edit-metadata-source")
      .click();
    await page.getByTestId("form-delete").click();
    await expect(page.getByTestId("delete-confirm")).toContainText(
      "Please confirm that you want to delete this metadata source",
    );
    await page.getByTestId("delete-confirm").getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/system-environment\?context=Data\+Dictionary$/);
    await expect(toast(page, "Delete response")).toContainText("record deleted");
    await expect(sourceRow(page, fixture.source ?? "")).toHaveCount(0);

    await environmentRow(page, fixture.environment).getByTestId("edit-system-environment").click();
    await expect(page.getByTestId("form-delete")).toBeEnabled();
    await page.getByTestId("form-delete").click();
    await expect(page.getByTestId("delete-confirm")).toContainText(
      "Please confirm that you want to delete this system environment",
    );
    await snap(page, "04-environment-delete-confirm");
    await page.getByTestId("delete-confirm").getByRole("button", { name: "Delete" }).click();
    await expect(page).toHaveURL(/\/system-environment\?context=Data\+Dictionary$/);
    await expect(toast(page, "Delete response")).toContainText("record deleted");
    await expect(environmentRow(page, fixture.environment)).toHaveCount(0);
  });

  test("the metadata-source create link waits for a system environment", async ({ page }) => {
    // Other tests leave environments behind, so this one shows the list as it is on a fresh start.
    await page.route("**/api/entity", async (route) => {
      const body = route.request().postDataJSON();
      if (body.entityType === "systemenvironment" && !body.includeDeleted)
        await route.fulfill({ json: { data: [], querySize: 0 } });
      else await route.continue();
    });
    await openList(page);
    await expect(page.getByTestId("system-environments")).toContainText(
      "No system environments yet",
    );
    await expect(page.getByTestId("create-metadata-source")).toBeDisabled();
    await page.getByTestId("create-metadata-source-hint").hover();
    await expect(page.getByRole("tooltip")).toHaveText("add a system environment first");
    await snap(page, "05-no-environment");
  });
});

test("a reader of the dictionary is offered no change the server would refuse", async ({
  page,
  browser,
}) => {
  await openList(page);
  const fixture = await makeDictionaryFixture(page.request, { source: true });
  const reader = await browser.newPage();
  await signIn(reader, dictionaryReader);
  await reader.goto("/system-environment");
  await expect(environmentRow(reader, fixture.environment)).toBeVisible();
  await expect(reader.getByTestId("create-system-environment")).toBeDisabled();
  await reader.getByTestId("create-system-environment-hint").hover();
  await expect(reader.getByRole("tooltip")).toHaveText(
    "your roles do not allow creating system environments",
  );
  await expect(reader.getByTestId("create-metadata-source")).toBeDisabled();
  await expect(reader.getByTestId("edit-system-environment")).toHaveCount(0);
  const row = sourceRow(reader, fixture.source ?? "");
  await expect(row.getByTestId("scheduled")).toBeDisabled();
  await expect(row.getByTestId("edit-metadata-source")).toHaveCount(0);
  await expect(row.getByTestId("import-source")).toHaveCount(0);
  await expect(row.getByTestId("ping-source")).toBeEnabled();
  await reader.close();
});

test.describe("metadata sources", () => {
  test("a new metadata source checks its cron text on the server and its identity", async ({
    page,
  }) => {
    await openList(page);
    const fixture = await makeDictionaryFixture(page.request);
    await page.reload();
    // The list checks its sources' texts; the form's own text is empty until typed.
    let emptyChecks = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/data-dictionary/validate-cron-string"))
        emptyChecks += r.postDataJSON().CronString === "" ? 1 : 0;
    });
    await page.getByTestId("create-metadata-source").click();
    await expect(page).toHaveURL(/\/metadata-source\/create\?context=Data\+Dictionary$/);
    await expect(page.getByRole("heading", { name: "New Metadata Source" })).toBeVisible();
    const save = page.getByTestId("form-save");
    await expect(save).toBeDisabled();
    await expect(page.getByLabel("Enable Schedule")).not.toBeChecked();

    await page.getByTestId("source-application").selectOption({ label: "Demo" });
    await page.getByLabel("Application Aspect").selectOption({ label: "Operational" });
    await page.getByLabel("System Environment").selectOption({ label: fixture.environment });
    const name = uniqueName("source");
    await page.getByLabel("Name").fill(name);
    await page.getByLabel("Description").fill("Catalog of the e2e database");
    // The empty text of a new source is not asked about (nor shown as being checked) until touched.
    await expect(page.getByRole("status", { name: "checking the cron text" })).toHaveCount(0);
    expect(emptyChecks).toBe(0);
    await snap(page, "06-source-new-untouched");

    const cron = page.getByLabel("Import Frequency");
    await cron.fill("0 3 * *");
    await expect(page.getByTestId("source-importfrequency-error")).toHaveText(
      "not a valid cron string (a cron expression has 5 or 6 fields, not 4)",
    );
    await expect(save).toBeDisabled();
    await snap(page, "06-source-cron-invalid");
    await cron.fill("0 3 * * *");
    await expect(page.getByTestId("source-importfrequency-error")).toHaveCount(0);
    await expect(page.getByTestId("cron-next")).toContainText("03:00");
    await expect(save).toBeEnabled();

    const request = page.waitForRequest((r) => r.url().endsWith("/api/save"));
    await save.click();
    expect((await request).postDataJSON().record).toMatchObject({
      systemenvironment: fixture.environmentId,
      name,
      importfrequency: "0 3 * * *",
      enableschedule: false,
      intro: null,
      uisequence: 1,
      editiondetail: null,
    });
    await expect(page).toHaveURL(/\/system-environment\?context=Data\+Dictionary$/);
    const row = sourceRow(page, name);
    await expect(row.locator("td").nth(0)).toHaveText("Demo");
    await expect(row.locator("td").nth(1)).toHaveText("Operational");
    await expect(row.locator("td").nth(2)).toHaveText(fixture.environment);
    await expect(row.getByTestId("cron-cell")).toHaveText("0 3 * * *");
    await expect(row.getByTestId("scheduled")).not.toBeChecked();
    await expect(row.getByTestId("last-import")).toHaveText("never");

    // The same three references again: refused before any save.
    await page.getByTestId("create-metadata-source").click();
    await page.getByTestId("source-application").selectOption({ label: "Demo" });
    await page.getByLabel("Application Aspect").selectOption({ label: "Operational" });
    await page.getByLabel("System Environment").selectOption({ label: fixture.environment });
    await expect(page.getByTestId("source-systemenvironment-error")).toHaveText(
      "a metadata source with this set of identifying attributes already exists",
    );
    await page.getByLabel("Name").fill("duplicate");
    await page.getByLabel("Description").fill("duplicate");
    await cron.fill("0 4 * * *");
    await expect(page.getByTestId("cron-next")).toBeVisible();
    await expect(save).toBeDisabled();
    await snap(page, "07-source-identity-taken");
  });

  test("an outdated cron answer is ignored", async ({ page }) => {
    await openList(page);
    await makeDictionaryFixture(page.request);
    // The answer for the first text arrives after the one for the second.
    await page.route("**/data-dictionary/validate-cron-string", async (route) => {
      if (route.request().postDataJSON().CronString === "0 5 * *")
        await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.continue();
    });
    await page.goto("/metadata-source/create");
    const cron = page.getByLabel("Import Frequency");
    await cron.fill("0 5 * *");
    await cron.fill("0 5 * * *");
    await expect(page.getByTestId("cron-next")).toContainText("05:00");
    await page.waitForTimeout(2000);
    await expect(page.getByTestId("source-importfrequency-error")).toHaveCount(0);
    await expect(page.getByTestId("cron-next")).toBeVisible();
  });

  test("the Scheduled checkbox saves the indicator at once", async ({ page }) => {
    await openList(page);
    const fixture = await makeDictionaryFixture(page.request, { source: true });
    await page.reload();
    const box = sourceRow(page, fixture.source ?? "").getByTestId("scheduled");
    await expect(box).not.toBeChecked();

    const saved = page.waitForResponse((r) => r.url().endsWith("/api/save") && r.ok());
    await box.check();
    expect((await saved).request().postDataJSON().record).toMatchObject({
      entityKeyID: fixture.sourceId,
      enableschedule: true,
      uisequence: 1,
    });
    await expect(box).toBeChecked();
    await expect(box).toBeEnabled();
    expect(
      (await readRecord(page.request, "metadatasource", fixture.sourceId ?? 0))?.enableschedule,
    ).toBe(true);
    await page.reload();
    await expect(sourceRow(page, fixture.source ?? "").getByTestId("scheduled")).toBeChecked();

    await sourceRow(page, fixture.source ?? "")
      .getByTestId("scheduled")
      .uncheck();
    await expect
      .poll(
        async () =>
          (await readRecord(page.request, "metadatasource", fixture.sourceId ?? 0))?.enableschedule,
      )
      .toBe(false);
  });

  test("an invalid import frequency is highlighted with the cron error as tooltip", async ({
    page,
  }) => {
    await openList(page);
    const fixture = await makeDictionaryFixture(page.request, { source: true });
    const invalid = "61 * * * *";
    // The server refuses an invalid cron on every save...
    const refused = await page.request.post("/api/save", {
      headers: FROM_PAGE,
      data: {
        context: DICTIONARY.name,
        entityType: "metadatasource",
        action: "update",
        record: { entityKeyID: fixture.sourceId, importfrequency: invalid },
      },
    });
    expect(refused.status()).toBe(400);
    expect((await refused.json()).message).toBe(
      `importfrequency: "${invalid}" is not a valid cron string (CronPattern: Invalid value for minute: 61)`,
    );
    // ...so the source is shown as one stored before that rule: its value altered in the answers.
    await page.route("**/api/entity", async (route) => {
      const response = await route.fetch();
      if (route.request().postDataJSON().entityType !== "metadatasource")
        return route.fulfill({ response });
      const list = await response.json();
      for (const record of list.data) {
        const stored = record.requested.attrValues.importfrequency;
        if (record.entityKeyID !== fixture.sourceId || !stored) continue;
        stored.value = invalid;
        if (stored.label !== undefined) stored.label = invalid;
      }
      await route.fulfill({ response, json: list });
    });
    await page.reload();
    const cell = sourceRow(page, fixture.source ?? "").getByTestId("cron-cell");
    await expect(cell).toHaveClass(/table-danger/);
    await cell.getByTestId("cron-error-trigger").hover();
    await expect(page.getByRole("tooltip")).toHaveText(
      "not a valid cron string (CronPattern: Invalid value for minute: 61)",
    );
    await snap(page, "08-list-cron-invalid");

    // The edit form shows the same problem straight away and will not save until it is fixed.
    await sourceRow(page, fixture.source ?? "")
      .getByTestId("edit-metadata-source")
      .click();
    await expect(page.getByRole("heading", { name: "Edit Metadata Source" })).toBeVisible();
    await expect(page.getByTestId("source-importfrequency-error")).toHaveText(
      "not a valid cron string (CronPattern: Invalid value for minute: 61)",
    );
    await expect(page.getByTestId("form-save")).toBeDisabled();
  });

  test("the edit form keeps the identifying references and saves the rest", async ({ page }) => {
    await openList(page);
    const fixture = await makeDictionaryFixture(page.request, { source: true });
    await page.goto(`/metadata-source/edit/${fixture.sourceId}`);
    await expect(page.getByRole("heading", { name: "Edit Metadata Source" })).toBeVisible();
    for (const field of ["application", "applicationaspect", "systemenvironment"]) {
      await expect(page.getByTestId(`source-${field}`)).toBeDisabled();
    }
    await expect(page.getByLabel("System Environment")).toHaveValue(String(fixture.environmentId));
    await expect(page.getByTestId("form-delete")).toHaveClass(/btn-danger/);
    await snap(page, "09-source-edit");

    await page.getByLabel("Name").fill("");
    await expect(page.getByTestId("source-name-error")).toHaveText("required field");
    await expect(page.getByTestId("form-save")).toBeDisabled();
    const renamed = uniqueName("renamed");
    await page.getByLabel("Name").fill(renamed);
    await page.getByLabel("Import Frequency").fill("*/15 * * * *");
    await page.getByLabel("Enable Schedule").check();
    await expect(page.getByTestId("form-save")).toBeEnabled();
    const request = page.waitForRequest((r) => r.url().endsWith("/api/save"));
    await page.getByTestId("form-save").click();
    const record = (await request).postDataJSON().record;
    expect(record).toMatchObject({
      entityKeyID: fixture.sourceId,
      name: renamed,
      importfrequency: "*/15 * * * *",
      enableschedule: true,
    });
    expect(record).not.toHaveProperty("application");
    expect(record).not.toHaveProperty("description");

    await expect(page).toHaveURL(/\/system-environment\?context=Data\+Dictionary$/);
    const row = sourceRow(page, renamed);
    await expect(row.getByTestId("cron-cell")).toHaveText("*/15 * * * *");
    await expect(row.getByTestId("scheduled")).toBeChecked();
  });

  test("ping and import of a source without its connection file report the server's error", async ({
    page,
  }) => {
    await openList(page);
    const fixture = await makeDictionaryFixture(page.request, {
      source: true,
      connectionFile: "missing-e2e.conf",
    });
    await page.reload();
    const row = sourceRow(page, fixture.source ?? "");

    // The button stays disabled while its call runs.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/data-dictionary/ping-metadata-source", async (route) => {
      await held;
      await route.continue();
    });
    await row.getByTestId("ping-source").click();
    await expect(row.getByTestId("ping-source")).toBeDisabled();
    await expect(row.getByTestId("import-source")).toBeEnabled();
    release();
    await expect(toast(page, "Error")).toContainText(
      "Connection file 'missing-e2e.conf' does not exist",
    );
    await expect(row.getByTestId("ping-source")).toBeEnabled();
    await snap(page, "10-ping-error");

    await row.getByTestId("import-source").click();
    await expect(toast(page, "Error").last()).toContainText(
      "Connection file 'missing-e2e.conf' does not exist",
    );
  });

  test("ping and import of a reachable source succeed and the imported objects appear", async ({
    page,
  }) => {
    const database = await createSourceDatabase();
    test.skip(database === null, "no PostgreSQL server to import from");
    if (!database) return;
    try {
      const file = `${uniqueName("pg")}.conf`;
      writeConnectionFile(file, database.name);
      await openList(page);
      const fixture = await makeDictionaryFixture(page.request, {
        source: true,
        connectionFile: file,
      });
      await page.reload();
      const row = sourceRow(page, fixture.source ?? "");

      await row.getByTestId("ping-source").click();
      await expect(toast(page, "Success")).toContainText("connection confirmed");

      await row.getByTestId("import-source").click();
      await expect(toast(page, "Success").filter({ hasText: "metadata imported" })).toContainText(
        "1 data object (1 added",
      );
      await expect(row.getByTestId("last-import")).toContainText(/\d{4}-\d{2}-\d{2}\s*\d{2}:\d{2}/);
      await expect(
        row.getByTestId("last-import").getByRole("img", { name: "succeeded" }),
      ).toBeVisible();
      await snap(page, "11-import-success");

      // Imported objects wait for approval (the type approves uploads), so they are pending.
      const pending = await page.request.post("/api/entity", {
        headers: FROM_PAGE,
        data: {
          context: DICTIONARY.name,
          entityType: "dataobject",
          requirePending: true,
          includeDeleted: true,
          pageSize: 0,
          rowConstraints: [
            { attribute: "metadatasource", operator: "=", values: [fixture.sourceId] },
          ],
        },
      });
      const objects = (await pending.json()).data as { keyAttrValues: { name: string } }[];
      expect(objects.map((o) => o.keyAttrValues.name)).toEqual(["e2e_customer"]);
    } finally {
      await database.drop();
    }
  });
});

test.describe("generic partial viewer and test pages", () => {
  test("the partial viewer creates, shows, edits and removes a system environment", async ({
    page,
  }) => {
    const file = `${uniqueName("viewer")}.conf`;
    writeConnectionFile(file, "postgres");
    await openList(page);
    await makeDictionaryFixture(page.request);
    await page.goto("/system-environment-attempt-1");
    const viewer = page.getByTestId("viewer-systemenvironment");
    await expect(viewer.getByRole("heading", { name: "System environment" })).toBeVisible();
    await expect(viewer.getByTestId("viewer-edit")).toBeDisabled();
    await expect(viewer.getByTestId("viewer-remove")).toBeDisabled();
    await expect(viewer.getByTestId("viewer-detail-empty")).toBeVisible();

    // Single-row selection: a click selects a row and shows it stacked, a second click clears it.
    const first = viewer.getByTestId("viewer-row").first();
    const firstName = (await first.locator("td").first().textContent()) ?? "";
    await first.click();
    await expect(first).toHaveAttribute("aria-selected", "true");
    await expect(viewer.getByTestId("viewer-detail")).toContainText(firstName);
    await expect(viewer.getByTestId("viewer-edit")).toBeEnabled();
    await expect(viewer.getByTestId("viewer-remove")).toBeEnabled();
    await first.click();
    await expect(first).toHaveAttribute("aria-selected", "false");
    await expect(viewer.getByTestId("viewer-edit")).toBeDisabled();

    await viewer.getByTestId("viewer-create").click();
    const modal = page.getByTestId("viewer-form");
    await expect(modal.getByRole("heading", { name: "New System environment" })).toBeVisible();
    const ok = modal.getByRole("button", { name: "Add" });
    await expect(ok).toBeDisabled();
    const name = uniqueName("viewer");
    await modal.getByTestId("field-name").fill(name);
    await modal.getByTestId("field-description").fill("Made in the partial viewer");
    // Technology and connection file are chosen, as on the system environment's own form: from
    // the model's 'one of' rule and from the server's connection files.
    const technology = modal.getByTestId("field-technology");
    await expect(technology.locator("option")).toHaveText([
      "(choose)",
      "postgres",
      "mariadb",
      "mysql",
    ]);
    await technology.selectOption("postgres");
    const connectionFile = modal.getByTestId("field-connectionfile");
    await expect(connectionFile.locator("option", { hasText: file })).toHaveCount(1);
    await connectionFile.selectOption(file);
    await expect(ok).toBeEnabled();
    const request = page.waitForRequest((r) => r.url().endsWith("/api/save"));
    await ok.click();
    expect((await request).postDataJSON().record).toMatchObject({
      name,
      uisequence: 1,
      intro: null,
      editiondetail: null,
    });
    await expect(modal).toHaveCount(0);
    await expect(toast(page, "Saved")).toContainText(name);

    // The new record is selected and shown in the stacked detail, wherever it is in the order.
    await expect(viewer.getByTestId("viewer-detail")).toContainText(name);
    await expect(viewer.getByTestId("viewer-detail")).toContainText("Made in the partial viewer");
    await expect(viewer.getByTestId("viewer-detail")).toContainText("import");
    await snap(page, "12-partial-viewer");

    await viewer.getByTestId("viewer-edit").click();
    await expect(modal.getByTestId("field-name")).toBeDisabled();
    await modal.getByTestId("field-description").fill("Edited in the partial viewer");
    await modal.getByRole("button", { name: "Save" }).click();
    await expect(viewer.getByTestId("viewer-detail")).toContainText("Edited in the partial viewer");

    await viewer.getByTestId("viewer-remove").click();
    const confirm = page.getByTestId("viewer-remove-confirm");
    await expect(confirm).toContainText(REMOVE_TEXT);
    await confirm.getByRole("button", { name: "Remove" }).click();
    await expect(toast(page, "Delete response")).toContainText("1 record deleted");
    await expect(viewer.getByTestId("viewer-row").filter({ hasText: name })).toHaveCount(0);
    await expect(viewer.getByTestId("viewer-edit")).toBeDisabled();

    await page.getByTestId("fetch-connection-files").click();
    await expect(page.getByTestId("connection-files-result")).toContainText(file);
  });

  test("the test page fetches connection files and pings a chosen source", async ({ page }) => {
    await openList(page);
    const fixture = await makeDictionaryFixture(page.request, {
      source: true,
      connectionFile: "missing-e2e.conf",
    });
    await page.goto("/test");
    await page.getByTestId("fetch-connection-files").click();
    await expect(page.getByTestId("connection-files-result")).toHaveText(/^\[[\s\S]*\]$/);

    await expect(page.getByTestId("ping-source-button")).toBeDisabled();
    await page.getByTestId("ping-source-select").selectOption({ label: fixture.source ?? "" });
    await page.getByTestId("ping-source-button").click();
    await expect(page.getByTestId("ping-result")).toContainText("HTTP 404");
    await expect(page.getByTestId("ping-result")).toContainText(
      "Connection file 'missing-e2e.conf' does not exist",
    );
    await snap(page, "13-test-page");
  });

  test("every screen of the area leaves to / outside the 'Data Dictionary' context", async ({
    page,
  }) => {
    await openList(page);
    await chooseContext(page, REFERENCE.uiName);
    await expect(page).toHaveURL(/\/$/);

    for (const route of [
      "/system-environment",
      "/system-environment/create",
      "/metadata-source/create",
      "/system-environment-attempt-1",
      "/test",
    ]) {
      await page.goto(route);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByTestId("home-card-explorer")).toBeVisible();
    }

    await chooseContext(page, DICTIONARY.uiName);
    await page.goto("/system-environment-attempt-1");
    await expect(page.getByTestId("attempt-page")).toBeVisible();
    await chooseContext(page, REFERENCE.uiName);
    await expect(page).toHaveURL(/\/$/);
  });
});
