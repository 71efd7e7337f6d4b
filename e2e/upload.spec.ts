import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, type Locator, type Page, test } from "@playwright/test";
import ExcelJS from "exceljs";
import { FROM_PAGE } from "./support/api.ts";
import { chooseContext, mainNav, signIn } from "./support/app.ts";
import { admin, DICTIONARY, plain, REFERENCE } from "./support/users.ts";

/*
 * The upload screen against the shared e2e server. Only the countries upload writes anything,
 * and only pending changes (never 'Approve everything'); the other runs are refusals or
 * 'Check only' dry runs, so other spec files see the demo data as seeded.
 */

const examples = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));

// The populations countries.xlsx proposes (scripts/generate-examples.ts).
const POPULATIONS: Record<string, number> = {
  AT: 9_104_772,
  BE: 11_742_796,
  DE: 84_358_845,
  ES: 48_059_777,
  FR: 68_070_697,
  IT: 58_850_717,
  LU: 660_809,
  NL: 17_811_291,
  PL: 36_753_736,
  SE: 10_521_556,
};

// Review screenshots, taken only when E2E_SCREENSHOTS names a folder.
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await page.waitForTimeout(400);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

const layoutSelect = (page: Page): Locator => page.getByLabel("File layout");
const fileInput = (page: Page): Locator => page.getByLabel("File", { exact: true });
const uploadButton = (page: Page): Locator =>
  page.getByRole("button", { name: "Upload", exact: true });
const checkButton = (page: Page): Locator => page.getByRole("button", { name: "Check only" });
const result = (page: Page): Locator => page.getByTestId("upload-result");
const deleteMissing = (page: Page): Locator =>
  page.getByRole("checkbox", { name: /^Delete missing/ });
const approveEverything = (page: Page): Locator =>
  page.getByRole("checkbox", { name: /^Approve everything/ });

async function openUpload(page: Page): Promise<void> {
  await signIn(page, admin);
  await chooseContext(page, REFERENCE.uiName);
  await mainNav(page).getByRole("link", { name: "Upload (xlsx)" }).click();
  await expect(page).toHaveURL(/\/upload$/);
  await expect(page.getByRole("heading", { name: "XLSX upload" })).toBeVisible();
  await expect(layoutSelect(page).getByRole("option", { name: "Countries" })).toBeAttached();
}

async function chooseLayout(page: Page, uiName: string): Promise<void> {
  await layoutSelect(page).selectOption({ label: uiName });
}

async function openAdvanced(page: Page): Promise<void> {
  const toggle = page.getByRole("button", { name: "Advanced options" });
  if ((await toggle.getAttribute("aria-expanded")) !== "true") await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
}

/** After any result: no layout, no file, no options, nothing to send. */
async function expectCleared(page: Page): Promise<void> {
  await expect(layoutSelect(page)).toHaveValue("");
  await expect(layoutSelect(page).locator("option:checked")).toHaveText("(none selected)");
  await expect(fileInput(page)).toHaveValue("");
  await expect(deleteMissing(page)).toHaveCount(0);
  await expect(approveEverything(page)).toHaveCount(0);
  await expect(uploadButton(page)).toBeDisabled();
  await expect(checkButton(page)).toBeDisabled();
}

/** A currencies workbook with only a few rows: with 'Delete missing' most records go missing. */
async function fewCurrencies(): Promise<Buffer> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet("Currencies");
  sheet.addRow(["Code", "Name", "Minor units", "Active"]);
  sheet.addRow(["EUR", "Euro", 2, true]);
  sheet.addRow(["USD", "US Dollar", 2, true]);
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

test.describe("upload", () => {
  test.beforeEach(async ({ page }) => {
    await openUpload(page);
  });

  test("offers the layouts with their defaults; layout and .xlsx file are required", async ({
    page,
  }) => {
    await expect(layoutSelect(page).getByRole("option")).toHaveText([
      "(none selected)",
      "Countries",
      "Regions",
      "Currencies",
    ]);
    await expect(layoutSelect(page)).toHaveValue("");
    await expect(fileInput(page)).toHaveAttribute(
      "accept",
      ".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    );
    await expect(uploadButton(page)).toBeDisabled();
    await expect(checkButton(page)).toBeDisabled();
    await shot(page, "upload-01-empty");

    await openAdvanced(page);
    await expect(page.getByText("Choose a file layout to see its options.")).toBeVisible();

    await chooseLayout(page, "Countries");
    await expect(deleteMissing(page)).toHaveAccessibleName("Delete missing (layout default: no)");
    await expect(approveEverything(page)).toHaveAccessibleName(
      "Approve everything (layout default: no)",
    );
    await expect(deleteMissing(page)).not.toBeChecked();
    await expect(approveEverything(page)).not.toBeChecked();
    // A layout alone is not enough.
    await expect(uploadButton(page)).toBeDisabled();

    await chooseLayout(page, "Currencies");
    await expect(deleteMissing(page)).toHaveAccessibleName("Delete missing (layout default: yes)");
    await expect(deleteMissing(page)).toBeChecked();
    await expect(approveEverything(page)).not.toBeChecked();
    await shot(page, "upload-02-advanced");

    // Anything but .xlsx is refused on the client.
    await fileInput(page).setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("not a workbook"),
    });
    await expect(page.getByTestId("upload-file-error")).toHaveText(
      "'notes.txt' is not an .xlsx file. Only .xlsx workbooks can be uploaded.",
    );
    await expect(uploadButton(page)).toBeDisabled();
    await expect(checkButton(page)).toBeDisabled();
    await shot(page, "upload-03-not-xlsx");

    await fileInput(page).setInputFiles(examples("currencies.xlsx"));
    await expect(page.getByTestId("upload-file-error")).toBeHidden();
    await expect(uploadButton(page)).toBeEnabled();
    await expect(checkButton(page)).toBeEnabled();

    // Back to no layout: nothing to send again.
    await layoutSelect(page).selectOption("");
    await expect(uploadButton(page)).toBeDisabled();
  });

  test("uploads countries.xlsx: success, the changes wait for approval, the form is cleared", async ({
    page,
  }) => {
    await chooseLayout(page, "Countries");
    await fileInput(page).setInputFiles(examples("countries.xlsx"));
    await uploadButton(page).click();

    await expect(result(page).getByRole("heading")).toHaveText("success!");
    await expect(result(page)).toContainText(
      /countries\.xlsx: 249 rows read - 0 added, 10 changed, 0 missing, 239 unchanged; 10 changes pending approval/,
    );
    await expectCleared(page);
    await shot(page, "upload-04-success");

    const review = result(page).getByRole("link", { name: "Review pending changes" });
    await expect(review).toHaveAttribute("href", "/pending");
    await review.click();
    await expect(page).not.toHaveURL(/\/upload$/);

    // The changes are pending, with the file's populations (same session cookies as the page).
    const response = await page.request.post("/api/entity", {
      headers: FROM_PAGE,
      data: {
        context: REFERENCE.name,
        entityType: "country",
        includeDeleted: true,
        requirePending: true,
        pageSize: 0,
      },
    });
    expect(response.ok(), await response.text()).toBe(true);
    const list = (await response.json()) as {
      data: {
        keyAttrValues: Record<string, unknown>;
        pending?: { action: string; attrValues: Record<string, { value: unknown }> }[];
      }[];
    };
    for (const [iso2, population] of Object.entries(POPULATIONS)) {
      const record = list.data.find((r) => r.keyAttrValues.iso2 === iso2);
      expect(record, `${iso2} has a pending change`).toBeDefined();
      expect(
        record?.pending?.some(
          (p) => p.action === "Change" && p.attrValues.population?.value === population,
        ),
        `${iso2} waits for population ${population}`,
      ).toBe(true);
    }
  });

  test("refuses countries-invalid.xlsx with the row problems", async ({ page }) => {
    await chooseLayout(page, "Countries");
    await fileInput(page).setInputFiles(examples("countries-invalid.xlsx"));
    await uploadButton(page).click();

    await expect(result(page).getByRole("heading")).toHaveText("failure!");
    await expect(result(page)).toContainText("The file was refused; nothing was changed.");
    const problems = page.getByTestId("upload-problems").getByRole("listitem");
    await expect(problems.first()).toBeVisible();
    expect(await problems.count()).toBeGreaterThan(1);
    await expect(problems.filter({ hasText: "row 2, column 'Population'" })).toHaveText(
      `row 2, column 'Population': "many" is not a number`,
    );
    await expectCleared(page);
    await shot(page, "upload-05-failure");
  });

  test("'Check only' of currencies.xlsx changes nothing; the flags reset afterwards", async ({
    page,
  }) => {
    await openAdvanced(page);
    await chooseLayout(page, "Currencies");
    await expect(deleteMissing(page)).toBeChecked();
    await deleteMissing(page).uncheck();
    await fileInput(page).setInputFiles(examples("currencies.xlsx"));
    await checkButton(page).click();

    await expect(result(page).getByRole("heading")).toHaveText("success!");
    await expect(result(page)).toContainText(
      /Check only, nothing was changed\. currencies\.xlsx: \d+ rows read - \d+ added, \d+ changed, 0 missing/,
    );
    await expect(result(page).getByRole("link", { name: "Review pending changes" })).toHaveCount(0);
    await expectCleared(page);
    await shot(page, "upload-06-check-only");

    // A new choice of the layout starts from its defaults again.
    await chooseLayout(page, "Currencies");
    await expect(deleteMissing(page)).toBeChecked();
  });

  test("asks before marking most records missing and sends again once confirmed", async ({
    page,
  }) => {
    const file = { name: "few-currencies.xlsx", mimeType: "", buffer: await fewCurrencies() };
    const modal = page.getByTestId("upload-confirm-modal");

    await chooseLayout(page, "Currencies");
    await fileInput(page).setInputFiles(file);
    await checkButton(page).click();
    await expect(modal).toBeVisible();
    await expect(modal).toContainText(
      /This upload would mark \d+ of \d+ Currency records missing \(more than half\)\./,
    );
    await shot(page, "upload-07-confirm");
    await modal.getByRole("button", { name: "Cancel" }).click();
    await expect(modal).toBeHidden();
    await expect(result(page).getByRole("heading")).toHaveText("failure!");
    await expect(result(page)).toContainText("(more than half)");
    await expectCleared(page);

    await chooseLayout(page, "Currencies");
    await fileInput(page).setInputFiles(file);
    await checkButton(page).click();
    await modal.getByRole("button", { name: "Continue the upload" }).click();
    await expect(modal).toBeHidden();
    await expect(result(page).getByRole("heading")).toHaveText("success!");
    await expect(result(page)).toContainText(
      /Check only, nothing was changed\. few-currencies\.xlsx: 2 rows read - 0 added, \d+ changed, [1-9]\d* missing/,
    );
    await expectCleared(page);
  });

  test("disables every control and shows progress while waiting", async ({ page }) => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/upload", async (route) => {
      await held;
      await route.continue();
    });

    await openAdvanced(page);
    await chooseLayout(page, "Currencies");
    await fileInput(page).setInputFiles(examples("currencies.xlsx"));
    await checkButton(page).click();

    await expect(page.getByTestId("upload-progress")).toBeVisible();
    await expect(checkButton(page).locator(".spinner-border")).toBeVisible();
    await expect(layoutSelect(page)).toBeDisabled();
    await expect(fileInput(page)).toBeDisabled();
    await expect(deleteMissing(page)).toBeDisabled();
    await expect(approveEverything(page)).toBeDisabled();
    await expect(uploadButton(page)).toBeDisabled();
    await expect(checkButton(page)).toBeDisabled();
    await shot(page, "upload-08-waiting");

    release();
    await expect(result(page).getByRole("heading")).toHaveText("success!");
    await expect(page.getByTestId("upload-progress")).toHaveCount(0);
    await expectCleared(page);
  });

  test("reports how much of a slow upload has been sent", async ({ page }) => {
    // Starts like a zip, so the server reads it all before refusing it as a workbook.
    const buffer = Buffer.alloc(400_000, 1);
    buffer.write("PK\u0003\u0004", 0, "latin1");
    await chooseLayout(page, "Currencies");
    await fileInput(page).setInputFiles({ name: "big.xlsx", mimeType: "", buffer });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 100_000,
    });
    await checkButton(page).click();

    await expect(page.getByTestId("upload-progress")).toContainText(/Sending big\.xlsx…\s*\d+%/);
    await shot(page, "upload-09-progress");
    await expect(result(page).getByRole("heading")).toHaveText("failure!");
    await expect(result(page)).toContainText("not a valid .xlsx workbook");
    await expectCleared(page);
  });

  test("a change of application resets the layout and reloads the layouts", async ({ page }) => {
    await chooseLayout(page, "Countries");
    await expect(layoutSelect(page)).toHaveValue("countries");

    await chooseContext(page, DICTIONARY.uiName);
    await expect(page.getByText("Ingest data into Data Dictionary")).toBeVisible();
    await expect(layoutSelect(page)).toHaveValue("");
    await expect(layoutSelect(page).getByRole("option", { name: "Countries" })).toHaveCount(0);

    await chooseContext(page, REFERENCE.uiName);
    await expect(layoutSelect(page).getByRole("option", { name: "Countries" })).toBeAttached();
    await expect(layoutSelect(page)).toHaveValue("");
  });
});

test("a steward without the approve right cannot tick 'Approve everything'", async ({ page }) => {
  await signIn(page, plain);
  await chooseContext(page, REFERENCE.uiName);
  await mainNav(page).getByRole("link", { name: "Upload (xlsx)" }).click();
  await chooseLayout(page, "Countries");
  await openAdvanced(page);
  await expect(approveEverything(page)).toBeDisabled();
  await expect(approveEverything(page)).not.toBeChecked();
  await expect(page.getByText("Only approvers may use 'Approve everything'.")).toBeVisible();
  // Stewards may delete, so 'Delete missing' stays theirs to choose.
  await expect(deleteMissing(page)).toBeEnabled();
  await shot(page, "upload-10-steward");
});

test("an administrator cannot approve their own countries: 'Approve everything' is disabled with the rule", async ({
  page,
}) => {
  await openUpload(page);
  await chooseLayout(page, "Countries");
  await openAdvanced(page);
  await expect(approveEverything(page)).toBeDisabled();
  await expect(approveEverything(page)).not.toBeChecked();
  await expect(
    page.getByText(
      "'Approve everything' would approve your own changes, and Country does not allow self-approval.",
    ),
  ).toBeVisible();
  // Currencies allow self-approval: an approver may still apply an upload of them at once.
  await chooseLayout(page, "Currencies");
  await expect(approveEverything(page)).toBeEnabled();
  await shot(page, "upload-11-four-eyes");
});
