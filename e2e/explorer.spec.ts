import type { EntityList, EntityQuery } from "@ledgerline/contract";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { FROM_PAGE } from "./support/api.ts";
import { signIn } from "./support/app.ts";
import { downloadWorkbook } from "./support/downloads.ts";
import { admin, REFERENCE } from "./support/users.ts";

const DELETE_TEXT =
  "Please confirm that you want to remove the selected item from the data repository. (removed items can still be viewed)";

const rows = (page: Page): Locator => page.getByTestId("record-row");
const position = (page: Page): Locator => page.getByTestId("position-message");
const filterPanel = (page: Page): Locator => page.getByTestId("filter-panel");

/** A currency code no other test uses. */
function uniqueCode(): string {
  const random = Math.random().toString(36).slice(2, 6).toUpperCase();
  return `T${Date.now().toString(36).slice(-3).toUpperCase()}${random}`;
}

/** Signs in as the administrator and opens the explorer on one type of 'Reference Data'. */
async function openExplorer(page: Page, typeName = "Currency"): Promise<void> {
  await signIn(page, admin);
  const contexts = page.getByTestId("context-select");
  await expect(contexts.getByRole("option", { name: REFERENCE.uiName })).toBeAttached();
  await contexts.selectOption({ label: REFERENCE.uiName });
  await page.getByTestId("nav-explorer").click();
  await expect(page.getByTestId("type-sidenav-title")).toHaveText("Reference Data data types");
  await page.getByTestId("type-sidenav").getByRole("button", { name: typeName }).click();
  await expect(page.getByTestId("explorer-title")).toHaveText(typeName);
  await expect(rows(page).first()).toBeVisible();
}

async function totalOf(page: Page): Promise<number> {
  await expect(position(page)).toHaveText(/of \d+ results/);
  const text = (await position(page).textContent()) ?? "";
  return Number(/of (\d+) results/.exec(text)?.[1]);
}

async function codesShown(page: Page): Promise<string[]> {
  return rows(page).locator("td:first-child").allTextContents();
}

async function idle(page: Page): Promise<void> {
  await expect(page.getByTestId("explorer-loading")).toHaveCount(0);
}

/** Adds a filter for an attribute to the shown search tab. */
async function addFilter(page: Page, attribute: string): Promise<Locator> {
  const choice = filterPanel(page).getByRole("button", { name: attribute, exact: true });
  // Opened again if a click landed while the panel was still sliding open.
  await expect(async () => {
    if (!(await choice.isVisible())) await filterPanel(page).getByTestId("add-filter").click();
    await expect(choice).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await choice.click();
  return filterPanel(page).getByTestId("filter-row").last();
}

async function showOnlyCode(page: Page, code: string): Promise<void> {
  await page.getByTestId("filter-toggle").click();
  const row = await addFilter(page, "Code");
  await row.getByLabel("Code operator").selectOption("=");
  await row.getByLabel("Code value").fill(code);
  await expect(position(page)).toHaveText("1 - 1 of 1 results");
  await expect(rows(page).first().locator("td").first()).toHaveText(code);
}

async function createCurrency(
  page: Page,
  record: Record<string, string | number | boolean | null>,
) {
  const response = await page.request.post("/api/save", {
    headers: FROM_PAGE,
    data: { context: REFERENCE.name, entityType: "currency", action: "create", record },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

async function chooseAction(page: Page, name: string): Promise<void> {
  await page.getByTestId("actions-toggle").click();
  await page.getByRole("button", { name, exact: true }).click();
}

test.describe("data explorer", () => {
  test("lists the readable types and sorts currencies by a column both ways", async ({ page }) => {
    await openExplorer(page);
    const sidenav = page.getByTestId("type-sidenav");
    await expect(sidenav.getByRole("button")).toHaveText(["", "Currency", "Country", "Region"]);
    await expect(rows(page)).toHaveCount(20);

    await page.getByTestId("table-options").click();
    await expect(page.getByLabel("Show discontinued")).not.toBeChecked();
    await expect(page.getByLabel("Trim cells")).toBeChecked();
    await expect(page.getByTestId("records-table")).toHaveClass(/explorer-trim/);
    await page.getByLabel("Trim cells").uncheck();
    await expect(page.getByTestId("records-table")).not.toHaveClass(/explorer-trim/);
    await page.getByTestId("table-options").click();

    await page.getByTestId("sort-code").click();
    await expect(page.locator("th[aria-sort=ascending]")).toHaveText("Code");
    await idle(page);
    const ascending = await codesShown(page);
    expect(ascending).toEqual([...ascending].sort());

    await page.getByTestId("sort-code").click();
    await expect(page.locator("th[aria-sort=descending]")).toHaveText("Code");
    await idle(page);
    const descending = await codesShown(page);
    expect(descending).toEqual([...descending].sort().reverse());
    expect(descending[0] > ascending[0]).toBe(true);

    await page.getByTestId("sidenav-toggle").click();
    await expect(sidenav.getByRole("button", { name: "Country" })).toBeHidden();
    await page.getByTestId("sidenav-toggle").click();
    await expect(sidenav.getByRole("button", { name: "Country" })).toBeVisible();
  });

  test("filters with two search tabs that are ORed, and disabling a tab", async ({ page }) => {
    await openExplorer(page);
    const sent: EntityQuery[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/entity")) sent.push(r.postDataJSON() as EntityQuery);
    });
    await page.getByTestId("filter-toggle").click();
    await expect(page.getByTestId("no-filters")).toHaveText("(No Active Filters)");

    const first = await addFilter(page, "Code");
    await expect(first.getByLabel("Code operator")).toHaveValue("StartsWith");
    await first.getByLabel("Code value").fill("EU");
    await expect(position(page)).toHaveText("1 - 1 of 1 results");
    // One search tab is the rowConstraints of SPEC's call; several are sent as ORed groups.
    const eu = { attribute: "code", operator: "StartsWith", values: ["EU"] };
    expect(sent.at(-1)).toMatchObject({ rowConstraints: [eu] });
    expect(sent.at(-1)).not.toHaveProperty("constraintGroups");

    await page.getByRole("button", { name: "Add search tab" }).click();
    await expect(page.getByTestId("no-filters")).toBeVisible();
    const second = await addFilter(page, "Code");
    await second.getByLabel("Code operator").selectOption("=");
    await second.getByLabel("Code value").fill("usd");
    await expect(position(page)).toHaveText("1 - 2 of 2 results");
    expect((await codesShown(page)).sort()).toEqual(["EUR", "USD"]);
    expect(sent.at(-1)).toMatchObject({
      constraintGroups: [[eu], [{ attribute: "code", operator: "=", values: ["usd"] }]],
    });
    expect(sent.at(-1)).not.toHaveProperty("rowConstraints");

    await second.getByRole("button", { name: "Duplicate Code filter" }).click();
    await expect(filterPanel(page).getByTestId("filter-row")).toHaveCount(2);
    await filterPanel(page).getByRole("button", { name: "Remove Code filter" }).last().click();
    await expect(filterPanel(page).getByTestId("filter-row")).toHaveCount(1);

    await page.getByRole("button", { name: "Disable search 2" }).click();
    await expect(position(page)).toHaveText("1 - 1 of 1 results");
    expect(await codesShown(page)).toEqual(["EUR"]);
    await page.getByRole("button", { name: "Enable search 2" }).click();
    await expect(position(page)).toHaveText("1 - 2 of 2 results");

    await page.getByRole("button", { name: "Close search 1" }).click();
    await expect(position(page)).toHaveText("1 - 1 of 1 results");
    expect(await codesShown(page)).toEqual(["USD"]);
  });

  test("filters countries by reference, boolean and date; generated ones cannot be chosen", async ({
    page,
  }) => {
    await openExplorer(page, "Country");
    await page.getByTestId("filter-toggle").click();
    await filterPanel(page).getByTestId("add-filter").click();
    await expect(
      filterPanel(page).getByRole("button", { name: "Population band (generated)" }),
    ).toBeDisabled();
    await page.keyboard.press("Escape");

    const population = await addFilter(page, "Population");
    await population.getByLabel("Population value").fill("12x");
    await expect(population.getByLabel("Population value")).toHaveClass(/is-invalid/);
    await population.getByLabel("Population value").fill("1000");
    await expect(population.getByLabel("Population value")).not.toHaveClass(/is-invalid/);
    await population.getByRole("button", { name: "Remove Population filter" }).click();

    const member = await addFilter(page, "EU member");
    await member.getByLabel("EU member value").selectOption("true");
    await expect(position(page)).toHaveText("1 - 20 of 27 results");

    const currency = await addFilter(page, "Currency");
    await currency.getByLabel("Currency value").selectOption({ label: "EUR - Euro" });
    await expect(position(page)).toHaveText(/^1 - 20 of 2\d results$/);
    await expect(position(page)).not.toHaveText("1 - 20 of 27 results");

    const joined = await addFilter(page, "Joined EU");
    await joined.getByLabel("Joined EU operator").selectOption(">=");
    await joined.getByLabel("Joined EU value").fill("2004-01-01");
    await expect(position(page)).toHaveText(/^1 - \d+ of \d+ results$/);
    await expect.poll(() => totalOf(page)).toBeLessThan(20);
    const dates = await rows(page).locator("td:nth-child(6)").allTextContents();
    expect(dates.length).toBeGreaterThan(0);
    for (const date of dates) expect(date >= "2004-01-01").toBe(true);
  });

  test("hides and shows columns with the hidden count on a badge", async ({ page }) => {
    await openExplorer(page);
    await page.getByTestId("columns-toggle").click();
    const menu = page.getByTestId("columns-menu");
    await expect(menu.getByLabel("Code (identity)")).toBeDisabled();
    await expect(page.getByTestId("hidden-columns-badge")).toHaveCount(0);

    await menu.getByLabel("Name", { exact: true }).uncheck();
    await menu.getByLabel("Minor units").uncheck();
    await expect(page.getByTestId("hidden-columns-badge")).toHaveText("2");
    await expect(page.getByRole("columnheader", { name: "Name" })).toHaveCount(0);
    await expect(page.getByRole("columnheader", { name: "Code" })).toBeVisible();

    await menu.getByLabel("(All)").check();
    await expect(page.getByTestId("hidden-columns-badge")).toHaveCount(0);
    await expect(page.getByRole("columnheader", { name: "Name" })).toBeVisible();

    await menu.getByLabel("(All)").uncheck();
    await expect(page.getByTestId("hidden-columns-badge")).toHaveText("3");
    await expect(page.getByRole("columnheader")).toHaveText(["Code"]);
  });

  test("changes page size and pages, with the position message", async ({ page }) => {
    await openExplorer(page);
    const total = await totalOf(page);
    expect(total).toBeGreaterThan(100);
    await expect(position(page)).toHaveText(`1 - 20 of ${total} results`);
    const sizes = page.getByTestId("page-size");
    await expect(sizes.locator("option")).toHaveText([
      ..."5 10 20 30 40 50 100 150 200 300 400 500".split(" "),
      `All(${total})`,
    ]);

    await sizes.selectOption("5");
    await expect(position(page)).toHaveText(`1 - 5 of ${total} results`);
    await expect(rows(page)).toHaveCount(5);
    const pages = page.getByTestId("pagination");
    await expect(pages.locator(".page-item:not(:first-child):not(:nth-child(2))")).toHaveCount(5);
    await pages.getByRole("button", { name: "2" }).click();
    await expect(position(page)).toHaveText(`6 - 10 of ${total} results`);
    await pages.getByRole("button", { name: /Next/ }).click();
    await expect(position(page)).toHaveText(`11 - 15 of ${total} results`);
    await pages.getByRole("button", { name: /Last/ }).click();
    const lastStart = Math.floor((total - 1) / 5) * 5 + 1;
    await expect(position(page)).toHaveText(`${lastStart} - ${total} of ${total} results`);
    await pages.getByRole("button", { name: /First/ }).click();
    await expect(position(page)).toHaveText(`1 - 5 of ${total} results`);

    await sizes.selectOption({ label: `All(${total})` });
    await expect(position(page)).toHaveText(`1 - ${total} of ${total} results`);
    await idle(page);
    // Long pages only render the rows in view.
    const rendered = await rows(page).count();
    expect(rendered).toBeGreaterThan(10);
    expect(rendered).toBeLessThan(total);

    await sizes.selectOption("100");
    await expect(position(page)).toHaveText(`1 - 100 of ${total} results`);
    await expect(rows(page)).toHaveCount(100);

    // Back to an earlier page size starts at page 1 again, not at the page it was left on.
    await sizes.selectOption("5");
    await pages.getByRole("button", { name: "2" }).click();
    await expect(position(page)).toHaveText(`6 - 10 of ${total} results`);
    await sizes.selectOption("10");
    await expect(position(page)).toHaveText(`1 - 10 of ${total} results`);
    await sizes.selectOption("5");
    await expect(position(page)).toHaveText(`1 - 5 of ${total} results`);
  });

  test("pages a sorted list from the rows shown, as the page numbers list it", async ({ page }) => {
    await openExplorer(page, "Country");
    await page.getByTestId("page-size").selectOption("10");
    await page.getByTestId("sort-currency").click();
    await expect(page.locator("th[aria-sort=ascending]")).toHaveText("Currency");
    await idle(page);
    const total = await totalOf(page);
    const last = Math.ceil(total / 10);
    expect(last).toBeGreaterThan(5);
    const sent: EntityQuery[] = [];
    page.on("request", (r) => {
      if (r.url().endsWith("/api/entity")) sent.push(r.postDataJSON() as EntityQuery);
    });
    /** The ISO codes of a page by its number: what every move must show. */
    const byNumber = async (n: number) => {
      const res = await page.request.post("/api/entity", {
        headers: FROM_PAGE,
        data: {
          context: REFERENCE.name,
          entityType: "country",
          pageSize: 10,
          pageNum: n,
          rowOrders: [{ attribute: "currency", asc: true }],
        },
      });
      expect(res.ok()).toBe(true);
      return ((await res.json()) as EntityList).data.map((r) => String(r.keyAttrValues.iso2));
    };
    const pages = page.getByTestId("pagination");
    /** Moves to page `to` (the last one: "last"); answers the page's number. */
    const move = async (
      button: string | RegExp,
      to: number | "last",
      seek?: Record<string, unknown>,
    ) => {
      const earlier = sent.length;
      await pages.getByRole("button", { name: button, exact: typeof button === "string" }).click();
      // Other specs add countries meanwhile: the total is the one the page shows.
      await expect(position(page)).toHaveText(
        to === "last" ? /^\d+ - (\d+) of \1 results$/ : new RegExp(`^${(to - 1) * 10 + 1} - `),
      );
      await idle(page);
      // The page is the one the position names: a country added meanwhile may raise the total
      // (and refetch the page) without moving the list off the page it is on.
      let n = 0;
      await expect(async () => {
        const text = (await position(page).textContent()) ?? "";
        const [, first, shown] = /^(\d+) - \d+ of (\d+) results$/.exec(text) ?? [];
        n = to === "last" ? (Number(first) - 1) / 10 + 1 : to;
        const end = Math.min(n * 10, Number(shown));
        expect(text).toBe(`${(n - 1) * 10 + 1} - ${end} of ${shown} results`);
        expect(await codesShown(page)).toEqual(await byNumber(n));
      }).toPass();
      // A page already fetched the same way comes from the cache (the first page, by number).
      const asked = sent.slice(earlier);
      if (seek) expect(asked.at(-1)).toMatchObject({ pageNum: n, seek });
      for (const q of asked) expect(q.seek === undefined).toBe(seek === undefined);
      return n;
    };
    await move("3", 3, { after: { entityKeyID: expect.any(Number) }, skipPages: 1 });
    await move(/Next/, 4, { after: { entityKeyID: expect.any(Number) }, skipPages: 0 });
    await move(/Previous/, 3, { before: { entityKeyID: expect.any(Number) }, skipPages: 0 });
    const lastPage = await move(/Last/, "last", { last: true });
    expect(lastPage).toBeGreaterThanOrEqual(last);
    await move(/Previous/, lastPage - 1, { before: { entityKeyID: expect.any(Number) } });
    await move(/First/, 1);
  });

  test("a large filtered list shows an estimated count, counted on demand and for the last page", async ({
    page,
  }) => {
    // The e2e server estimates the count of filtered lists expected to hold over 50 rows.
    await openExplorer(page, "Country");
    await page.getByTestId("filter-toggle").click();
    const name = await addFilter(page, "Name");
    await name.getByLabel("Name operator").selectOption("!=");
    await name.getByLabel("Name value").fill("Germany");
    await expect(position(page)).toHaveText(/^1 - 20 of about [\d,]+ results$/);
    const exact = page.getByTestId("exact-count");
    await exact.click();
    await expect(position(page)).toHaveText(/^1 - 20 of \d+ results$/);
    await expect(exact).toHaveCount(0);

    // Another filter is estimated again; 'Last page' counts before it goes there.
    await name.getByLabel("Name value").fill("France");
    await expect(position(page)).toHaveText(/^1 - 20 of about [\d,]+ results$/);
    await page.getByTestId("pagination").getByRole("button", { name: /Last/ }).click();
    await expect(position(page)).toHaveText(/^\d+ - (\d+) of \1 results$/);
    const [first, last] = ((await position(page).textContent()) ?? "").match(/\d+/g) ?? [];
    expect(Number(first)).toBe(Math.floor((Number(last) - 1) / 20) * 20 + 1);
    expect(Number(last)).toBeGreaterThan(200);
  });

  test("an empty nullable date shows '(null)' until it is given a date", async ({ page }) => {
    await openExplorer(page, "Country");
    await chooseAction(page, "Add new Country");
    const modal = page.getByTestId("add-record-modal");
    const joined = modal.getByTestId("field-joined_eu");
    const hint = joined.locator("xpath=..").getByText("(null)", { exact: true });
    await expect(hint).toBeVisible();
    await joined.fill("2004-05-01");
    await expect(hint).toHaveCount(0);
    await joined.fill("");
    await joined.blur();
    await expect(hint).toBeVisible();
    await modal.screenshot({ path: "test-results/add-country-null-date.png" });
  });

  test("a link naming the application and the type opens them (a decision e-mail's)", async ({
    page,
  }) => {
    await signIn(page, admin);
    await page.goto("/explorer?context=reference&type=country");
    await expect(page.getByTestId("explorer-title")).toHaveText("Country");
    await expect(page.getByTestId("context-select")).toHaveValue("reference");
    await expect(page).toHaveURL(/\/explorer\?context=reference&type=country$/);

    // Another application: the address names it, and no longer the previous one's type.
    await page.getByTestId("context-select").selectOption({ label: "Data Dictionary" });
    await expect(page).toHaveURL(/\/explorer\?context=Data\+Dictionary$/);
    await expect(page.getByTestId("type-sidenav-title")).toHaveText("Data Dictionary data types");
    await expect(page.getByTestId("explorer-title")).not.toHaveText("Country");
  });

  test("adds a currency through the modal", async ({ page }) => {
    const code = uniqueCode();
    await openExplorer(page);
    await chooseAction(page, "Add new Currency");
    const modal = page.getByTestId("add-record-modal");
    const add = modal.getByRole("button", { name: "Add", exact: true });
    await expect(modal.getByText("Add new Currency")).toBeVisible();
    await expect(add).toBeDisabled();
    await expect(modal.getByTestId("field-minor_units")).toHaveAttribute("placeholder", "(null)");
    await expect(modal.getByTestId("field-active").locator("option")).toHaveText([
      "true",
      "false",
      "null",
    ]);

    await modal.getByTestId("field-code").fill(code);
    await expect(add).toBeDisabled();
    await modal.getByTestId("field-name").fill("Test currency\nsecond line");
    await expect(modal.getByTestId("field-name")).toHaveAttribute("rows", "2");
    await modal.getByTestId("field-minor_units").fill("3");
    await modal.getByTestId("field-active").selectOption("true");
    await expect(add).toBeEnabled();

    await page.keyboard.press("Escape");
    await expect(modal).toBeVisible();
    await add.click();
    await expect(modal).toBeHidden();
    await expect(page.getByTestId("toast")).toContainText(`Currency '${code}' created`);

    await showOnlyCode(page, code);
    await expect(rows(page).first().locator("td")).toHaveText([
      code,
      "Test currency\nsecond line",
      "3",
      "true",
    ]);
  });

  test("edits a currency with undo and clear, then shows its history", async ({ page }) => {
    const code = uniqueCode();
    await openExplorer(page);
    await createCurrency(page, { code, name: "Edit me", minor_units: 2, active: true });
    await showOnlyCode(page, code);
    await rows(page).first().click();
    await chooseAction(page, "Edit");

    const editor = page.getByTestId("record-editor-modal");
    await expect(editor.getByRole("columnheader")).toHaveText(["Field", "Action", "Value"]);
    await expect(editor.getByRole("button", { name: "Edit Code" })).toBeDisabled();
    const apply = editor.getByRole("button", { name: "Apply changes" });
    await expect(apply).toBeDisabled();

    await editor.getByRole("button", { name: "Edit Name" }).click();
    const sub = page.getByTestId("edit-value-modal");
    await expect(sub.getByText("Editing Name")).toBeVisible();
    await sub.locator("textarea").fill("Edited name");
    await sub.getByRole("button", { name: "OK" }).click();
    const name = editor.getByTestId("editor-value-name");
    await expect(name).toContainText("Edit me");
    await expect(name).toContainText("Edited name");
    await expect(editor.getByRole("button", { name: "Edit Name" })).toBeDisabled();

    await editor.getByRole("button", { name: "Undo Name" }).click();
    await expect(name).toHaveText("Edit me");
    await expect(apply).toBeDisabled();

    await editor.getByRole("button", { name: "Clear Minor units" }).click();
    // The value, and under it the field's rule as a hint.
    const minorUnits = editor.getByTestId("editor-value-minor_units");
    await expect(minorUnits).toContainText("2becomesnull");
    await expect(minorUnits.getByTestId("rule-hint-minor_units")).toHaveText(
      "Minor units are between 0 and 4",
    );
    await expect(minorUnits.getByTestId(/^rule-(error|stored|warning)-/)).toHaveCount(0);
    await expect(editor.getByRole("button", { name: "Clear Minor units" })).toBeDisabled();
    await expect(editor.getByRole("button", { name: "Undo Minor units" })).toBeEnabled();

    await editor.getByRole("button", { name: "Edit Name" }).click();
    await sub.locator("textarea").fill("Renamed currency");
    await sub.getByRole("button", { name: "OK" }).click();
    await apply.click();
    await expect(editor).toBeHidden();
    await expect(page.getByTestId("toast")).toContainText(`Currency '${code}' saved`);
    await expect(rows(page).first().locator("td")).toHaveText([
      code,
      "Renamed currency",
      "",
      "true",
    ]);

    await rows(page).first().dblclick();
    await editor.getByRole("tab", { name: "History" }).click();
    const events = editor.getByTestId("history-event");
    await expect(events).toHaveCount(2);
    await expect(events.first()).toContainText("Update");
    await expect(events.first()).toContainText("Name: Edit me -> Renamed currency");
    await expect(events.first()).toContainText("Minor units: 2 -> null");
    await expect(events.last()).toContainText("Create");
  });

  test("deletes a currency after confirmation; discontinued rows show in red", async ({ page }) => {
    const code = uniqueCode();
    await openExplorer(page);
    await createCurrency(page, { code, name: "Delete me", minor_units: null, active: null });
    await showOnlyCode(page, code);

    await page.getByTestId("actions-toggle").click();
    await expect(page.getByRole("button", { name: "Delete", exact: true })).toBeDisabled();
    await page.keyboard.press("Escape");
    await rows(page).first().click();
    await chooseAction(page, "Delete");
    const confirm = page.getByTestId("delete-confirm");
    await expect(confirm).toContainText(DELETE_TEXT);
    await confirm.getByRole("button", { name: "Delete" }).click();

    const toast = page.getByTestId("toast").filter({ hasText: "Delete response" });
    await expect(toast).toBeVisible();
    await expect(position(page)).toHaveText("0 - 0 of 0 results");

    await page.getByTestId("table-options").click();
    await page.getByLabel("Show discontinued").check();
    await expect(position(page)).toHaveText("1 - 1 of 1 results");
    await expect(rows(page).first()).toHaveClass(/table-danger/);
    await expect(rows(page).first()).toHaveCSS("background-color", /./);
    await expect(toast).toBeHidden({ timeout: 8_000 });
  });

  test("'Generate xlsx' downloads the listed columns as Report_<timestamp>.xlsx", async ({
    page,
  }, testInfo) => {
    await openExplorer(page);
    await page.getByTestId("columns-toggle").click();
    await page.getByTestId("columns-menu").getByLabel("Minor units").uncheck();
    await page.getByTestId("columns-toggle").click();

    const { name, workbook } = await downloadWorkbook(page, testInfo, () =>
      chooseAction(page, "Generate xlsx"),
    );
    expect(name).toMatch(/^Report_\d{4}-\d{2}-\d{2}_\d{1,2}-\d{2}-\d{2}\.xlsx$/);
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).values).toEqual([undefined, "Code", "Name", "Active"]);
    expect(sheet.rowCount).toBeGreaterThan(100);
  });
});
