import { expect, type Locator, type Page, test } from "@playwright/test";
import { type Person, post } from "./support/api.ts";
import { signIn } from "./support/app.ts";
import { expectChangedCell, filterByIsoCode } from "./support/change-cells.ts";
import { referenceTeam, uploadCountries } from "./support/countries.ts";
import { downloadWorkbook } from "./support/downloads.ts";
import { shot } from "./support/screenshots.ts";
import { REFERENCE } from "./support/users.ts";

/**
 * Reference data as of a past moment, and what changed between two moments (issue 21). The spec
 * makes its own countries (codes `ZH<run>…`, never ISO codes; US dollars, no EU members, as the
 * explorer spec expects of approved test countries) and leaves none of them pending:
 *   before M1: A (population 1000) and B are created and approved;
 *   after M1, before M2: A's population becomes 2500, B is deleted and C created, all approved;
 *   after M2: an upload adds U, approved whole.
 * M1 and M2 are whole seconds (the picker's precision) that no write of the spec is near. The
 * browser runs in Amsterdam time, so the picker's local time is not the server's UTC.
 */

const ZONE = "Europe/Amsterdam";
test.use({ timezoneId: ZONE });

const run = Date.now().toString(36).slice(-5).toUpperCase();
const prefix = `ZH${run}`;
const code = { a: `${prefix}A`, b: `${prefix}B`, c: `${prefix}C`, u: `${prefix}U` } as const;
const uploadFile = `history-${run}.xlsx`;

let steward: Person;
let approver: Person;
/** The two moments, in milliseconds. */
let m1 = 0;
let m2 = 0;
let uploadId = 0;

type Values = Record<string, string | number | boolean | null>;

async function save(record: Values, action: "create" | "update"): Promise<void> {
  await post(steward.api, "/api/save", {
    context: REFERENCE.name,
    entityType: "country",
    action,
    record,
  });
}

/** The approver approves every pending change of the spec's countries. */
async function approvePending(): Promise<void> {
  const list = await post<{ data: { pending?: { entityEventID: number }[] }[] }>(
    approver.api,
    "/api/entity",
    {
      context: REFERENCE.name,
      entityType: "country",
      includeDeleted: true,
      requirePending: true,
      pageSize: 0,
      rowConstraints: [{ attribute: "iso2", operator: "StartsWith", values: [prefix] }],
    },
  );
  const ids = list.data.flatMap((r) => (r.pending ?? []).map((p) => p.entityEventID));
  expect(ids.length).toBeGreaterThan(0);
  await post(approver.api, "/api/approve", {
    context: REFERENCE.name,
    entityType: "country",
    entityEventIds: ids,
  });
}

async function keyOf(iso2: string): Promise<number> {
  const list = await post<{ data: { entityKeyID: number }[] }>(steward.api, "/api/entity", {
    context: REFERENCE.name,
    entityType: "country",
    rowConstraints: [{ attribute: "iso2", operator: "=", values: [iso2] }],
  });
  return list.data[0].entityKeyID;
}

/** Waits past the next whole second, well clear of the writes before and after, and answers it. */
async function nextWholeSecond(): Promise<number> {
  const second = Math.ceil((Date.now() + 50) / 1000) * 1000;
  await new Promise((resolve) => setTimeout(resolve, second + 50 - Date.now()));
  return second;
}

/** A moment in the browser's zone: as the picker takes it and as the screens show it. */
function local(moment: number): { input: string; text: string } {
  const format = new Intl.DateTimeFormat("en-GB", {
    timeZone: ZONE,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23",
  });
  const p = Object.fromEntries(
    format.formatToParts(new Date(moment)).map((x) => [x.type, x.value]),
  );
  // A datetime-local input shows whole minutes without their ":00" (the browser's own form).
  const seconds = p.second === "00" ? "" : `:${p.second}`;
  return {
    input: `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}${seconds}`,
    text: `${p.year}/${p.month}/${p.day} ${p.hour}:${p.minute}:${p.second}`,
  };
}

const iso = (moment: number) => new Date(moment).toISOString();
const param = (page: Page, name: string) => new URL(page.url()).searchParams.get(name);

test.beforeAll(async () => {
  let usd: number;
  ({ steward, approver, usd } = await referenceTeam("history", run));
  const country = (iso2: string, population: number): Values => ({
    iso2,
    name: `Testland ${iso2}`,
    currency: usd,
    population,
    eu_member: false,
  });
  await save(country(code.a, 1000), "create");
  await save(country(code.b, 500), "create");
  await approvePending();
  m1 = await nextWholeSecond();

  await save({ iso2: code.a, population: 2500 }, "update");
  await post(steward.api, "/api/delete", {
    context: REFERENCE.name,
    entityType: "country",
    entityKeyIds: [await keyOf(code.b)],
  });
  await save(country(code.c, 700), "create");
  await approvePending();
  m2 = await nextWholeSecond();

  uploadId = await uploadCountries(steward, uploadFile, [code.u]);
  await post(approver.api, "/api/approve", {
    context: REFERENCE.name,
    entityType: "country",
    uploadId,
  });
});

test.afterAll(async () => {
  await steward?.api.dispose();
  await approver?.api.dispose();
});

const rows = (page: Page): Locator => page.getByTestId("record-row");
const rowOf = (page: Page, iso2: string): Locator => rows(page).filter({ hasText: iso2 });
const position = (page: Page): Locator => page.getByTestId("position-message");
const banner = (page: Page): Locator => page.getByTestId("as-of-banner");
/** Explorer columns: ISO code, Name, Currency, Region, Population, ... */
const EXPLORER = { iso2: 0, name: 1, population: 4 } as const;

/** Signs in the steward and opens the explorer on Country, with more of the address if given. */
async function openCountries(page: Page, query = "", title = "explorer-title"): Promise<void> {
  await signIn(page, steward);
  await page.goto(`/explorer?type=country${query}`);
  await expect(page.getByTestId(title)).toHaveText("Country");
}

/** Lists only the spec's countries (the filter panel works as of a moment too). */
async function showOnlyOurs(page: Page): Promise<void> {
  await filterByIsoCode(page, prefix);
}

async function actionNames(page: Page): Promise<string[]> {
  await page.getByTestId("actions-toggle").click();
  const names = await page.locator(".dropdown-menu.show .dropdown-item").allTextContents();
  await page.keyboard.press("Escape");
  return names.map((n) => n.trim());
}

/** Whether the 'As of' box shows the current moment (within the last minute). */
async function currentMomentShown(page: Page): Promise<boolean> {
  const shown = await page.getByLabel("As of").inputValue();
  return shown >= local(Date.now() - 60_000).input && shown <= local(Date.now()).input;
}

/** The live list's 'As of' box shows the current moment (issue 21: its default). */
async function expectTheCurrentMoment(page: Page): Promise<void> {
  await expect.poll(() => currentMomentShown(page)).toBe(true);
}

test("lists countries as of a moment before an edit, read-only, exports it, and returns to now", async ({
  page,
}, testInfo) => {
  await openCountries(page);
  await showOnlyOurs(page);
  await expect(position(page)).toHaveText("1 - 3 of 3 results");
  await expect(rowOf(page, code.a).locator("td").nth(EXPLORER.population)).toHaveText("2500");
  await expect(banner(page)).toHaveCount(0);
  await expectTheCurrentMoment(page);
  await shot(page, "history-00-live");

  await page.getByLabel("As of").fill(local(m1).input);
  await expect(banner(page).getByTestId("as-of-text")).toHaveText(
    `Showing Country as of ${local(m1).text}`,
  );
  await expect.poll(() => param(page, "asOf")).toBe(iso(m1));
  // Then: A before its edit, B not yet deleted, C not yet there.
  await expect(position(page)).toHaveText("1 - 2 of 2 results");
  await expect(rowOf(page, code.a).locator("td").nth(EXPLORER.population)).toHaveText("1000");
  await expect(rowOf(page, code.b)).toHaveCount(1);
  await expect(rowOf(page, code.c)).toHaveCount(0);
  await shot(page, "history-01-as-of");

  // Read-only: nothing to change, and a double-click opens no editor, only the history.
  expect(await actionNames(page)).toEqual(["Generate xlsx", "Compare", "History"]);
  await rowOf(page, code.a).dblclick();
  await expect(page.getByTestId("record-editor-modal")).toHaveCount(0);
  await expect(page.getByTestId("record-history-modal")).toBeVisible();
  await page
    .getByTestId("record-history-modal")
    .locator(".modal-footer")
    .getByRole("button")
    .click();
  await expect(page.getByTestId("record-history-modal")).toHaveCount(0);

  // 'Generate xlsx' exports what is shown: the values of then.
  const { name, workbook } = await downloadWorkbook(page, testInfo, async () => {
    await page.getByTestId("actions-toggle").click();
    await page.getByRole("button", { name: "Generate xlsx" }).click();
  });
  expect(name).toMatch(/^Report_.*\.xlsx$/);
  const sheet = workbook.worksheets[0];
  const header = sheet.getRow(1).values as unknown[];
  const isoColumn = header.indexOf("ISO code");
  const populationColumn = header.indexOf("Population");
  const exported = new Map<unknown, unknown>();
  sheet.eachRow((row, n) => {
    if (n > 1) exported.set(row.getCell(isoColumn).value, row.getCell(populationColumn).value);
  });
  expect(Object.fromEntries(exported)).toEqual({ [code.a]: 1000, [code.b]: 500 });

  await banner(page).getByRole("button", { name: "Back to now" }).click();
  await expect(banner(page)).toHaveCount(0);
  await expectTheCurrentMoment(page);
  expect(param(page, "asOf")).toBeNull();
  // A moment past now (typed, or reached with the arrow keys) leaves the list live.
  await page.getByLabel("As of").fill(local(Date.now() + 86_400_000).input);
  await expect.poll(() => currentMomentShown(page)).toBe(true);
  await expect(banner(page)).toHaveCount(0);
  expect(param(page, "asOf")).toBeNull();
  await expect(position(page)).toHaveText("1 - 3 of 3 results");
  await expect(rowOf(page, code.a).locator("td").nth(EXPLORER.population)).toHaveText("2500");
  await expect(rowOf(page, code.c)).toHaveCount(1);
  expect(await actionNames(page)).toEqual([
    "Edit",
    "Delete",
    "Add new Country",
    "Generate xlsx",
    "Compare",
    "History",
  ]);
});

test("a reader who may not edit reads a record's history from the explorer", async ({ page }) => {
  await signIn(page, approver);
  await page.goto("/explorer?type=country");
  await expect(page.getByTestId("explorer-title")).toHaveText("Country");
  await showOnlyOurs(page);
  expect(await actionNames(page)).toEqual(["Generate xlsx", "Compare", "History"]);
  await page.getByTestId("actions-toggle").click();
  await expect(page.getByRole("button", { name: "History", exact: true })).toBeDisabled();
  await page.keyboard.press("Escape");

  await rowOf(page, code.a).click();
  await page.getByTestId("actions-toggle").click();
  await page.getByRole("button", { name: "History", exact: true }).click();
  const modal = page.getByTestId("record-history-modal");
  await expect(modal.getByRole("heading")).toContainText("History of Country");
  // A's edit, newest first, then its creation.
  await expect(modal.getByTestId("history-event").first()).toContainText("2500");
  await expect(modal.getByTestId("history-event")).not.toHaveCount(0);
  await modal.locator(".modal-footer").getByRole("button", { name: "Close" }).click();

  await rowOf(page, code.c).dblclick();
  await expect(page.getByTestId("record-editor-modal")).toHaveCount(0);
  await expect(page.getByTestId("record-history-modal")).toBeVisible();
});

test("a link with asOf restores the view of then; a future moment is refused", async ({ page }) => {
  await openCountries(page, `&asOf=${encodeURIComponent(iso(m1))}`);
  await expect(banner(page).getByTestId("as-of-text")).toHaveText(
    `Showing Country as of ${local(m1).text}`,
  );
  await expect(page.getByLabel("As of")).toHaveValue(local(m1).input);
  await showOnlyOurs(page);
  await expect(position(page)).toHaveText("1 - 2 of 2 results");
  await expect(rowOf(page, code.a).locator("td").nth(EXPLORER.population)).toHaveText("1000");

  await page.goto(
    `/explorer?type=country&asOf=${encodeURIComponent(iso(Date.now() + 86_400_000))}`,
  );
  await expect(page.getByTestId("toast").filter({ hasText: "As of" })).toContainText(
    "in the future",
  );
  // The refused moment is left for the live list: no banner claims it.
  await expect(banner(page)).toHaveCount(0);
  await expect.poll(() => param(page, "asOf")).toBeNull();

  const steps = await page.evaluate(() => window.history.length);
  await page.goto("/explorer?type=country&asOf=garbage");
  await expect(page.getByTestId("toast").filter({ hasText: "As of" })).toContainText(
    "'garbage' is not a moment (ISO 8601, with its offset): showing the records as they are now",
  );
  await expect(banner(page)).toHaveCount(0);
  await expect.poll(() => param(page, "asOf")).toBeNull();
  // Taken out in place: the back button does not lead to the unusable link again.
  expect(await page.evaluate(() => window.history.length)).toBe(steps + 1);
});

/** Compare columns: Change, ISO code, Name, Currency, Region, Population, ... */
const COMPARE = { change: 0, iso2: 1, name: 2, population: 5 } as const;
const compareRow = (page: Page, iso2: string): Locator =>
  page.getByTestId("compare-row").filter({ hasText: iso2 });

/** The server's counts for two ends: other specs may change countries meanwhile. */
async function countsBetween(from: string | number, to: string | number) {
  const answer = await post<{ counts: Record<string, number> }>(steward.api, "/api/compare", {
    context: REFERENCE.name,
    entityType: "country",
    from,
    to,
    pageSize: 1,
  });
  return answer.counts;
}

test("compares two moments: counts, kinds and the pending screen's colours; exports them", async ({
  page,
}, testInfo) => {
  await openCountries(page);
  await page.getByTestId("actions-toggle").click();
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  const compare = page.getByTestId("compare-view");
  await expect(compare).toBeVisible();
  await expect(page.getByTestId("compare-empty")).toHaveText("Choose both ends to compare");

  await page.getByTestId("compare-from-moment").fill(local(m1).input);
  await page.getByTestId("compare-to-moment").fill(local(m2).input);
  await expect.poll(() => param(page, "from")).toBe(iso(m1));
  await expect.poll(() => param(page, "to")).toBe(iso(m2));
  expect(param(page, "view")).toBe("compare");

  const expected = await countsBetween(iso(m1), iso(m2));
  for (const kind of ["Added", "Changed", "Removed"]) {
    expect(expected[kind]).toBeGreaterThanOrEqual(1);
    await expect(page.getByTestId(`compare-count-${kind}`)).toHaveText(`${kind} ${expected[kind]}`);
  }

  await page.getByTestId("page-size").selectOption("0");
  const row = (iso2: string) => compareRow(page, iso2);
  const cell = (iso2: string, column: number) => row(iso2).locator("td").nth(column);
  await expect(cell(code.a, COMPARE.change)).toHaveText("Changed");
  await expect(cell(code.b, COMPARE.change)).toHaveText("Removed");
  await expect(cell(code.c, COMPARE.change)).toHaveText("Added");

  // Changed: the old value struck through in orange, the new one on yellow; the rest white.
  const population = cell(code.a, COMPARE.population);
  await expectChangedCell(population, "1000", "2500");
  await expect(cell(code.a, COMPARE.name)).toHaveAttribute("data-change", "unchanged");
  await expect(cell(code.a, COMPARE.name)).toHaveCSS("background-color", "rgb(255, 255, 255)");
  // Added: new values in green, references by label.
  await expect(cell(code.c, COMPARE.population)).toHaveText("700");
  await expect(cell(code.c, COMPARE.population)).toHaveCSS(
    "background-color",
    "rgb(209, 231, 221)",
  );
  await expect(cell(code.c, 3)).toHaveText("USD - US Dollar");
  // Removed: the old values struck through in red.
  const removed = cell(code.b, COMPARE.name).getByTestId("old-value");
  await expect(removed).toHaveText(`Testland ${code.b}`);
  await expect(removed).toHaveCSS("text-decoration-line", "line-through");
  await expect(removed).toHaveCSS("color", "rgb(220, 53, 69)");
  await shot(page, "history-02-compare");

  // The kind filter.
  await page.getByTestId("compare-kind-filter").selectOption("Removed");
  await expect(position(page)).toHaveText(`1 - ${expected.Removed} of ${expected.Removed} results`);
  await expect(row(code.a)).toHaveCount(0);
  await expect(row(code.b)).toHaveCount(1);
  await page.getByTestId("compare-kind-filter").selectOption("");

  // The address keeps the comparison; 'Back to the list' leaves it.
  await page.reload();
  await expect(page.getByTestId(`compare-count-Changed`)).toHaveText(`Changed ${expected.Changed}`);
  await expect(page.getByTestId("compare-from-moment")).toHaveValue(local(m1).input);
  const { workbook } = await downloadWorkbook(page, testInfo, () =>
    compare.getByRole("button", { name: "Generate xlsx" }).click(),
  );

  await page.getByTestId("compare-back").click();
  await expect(compare).toHaveCount(0);
  expect(param(page, "view")).toBeNull();
  await expect(page.getByTestId("explorer-title")).toHaveText("Country");

  // 'Generate xlsx' wrote old and new values side by side, numbers as numbers.
  const sheet = workbook.worksheets[0];
  const header = sheet.getRow(1).values as unknown[];
  expect(header.slice(1, 4)).toEqual(["Change", "ISO code (old)", "ISO code (new)"]);
  const populationOld = header.indexOf("Population (old)");
  const changed = sheet.getRows(2, sheet.rowCount - 1)?.find((r) => r.getCell(3).value === code.a);
  expect(changed?.getCell(1).value).toBe("Changed");
  expect(changed?.getCell(populationOld).value).toBe(1000);
  expect(changed?.getCell(populationOld + 1).value).toBe(2500);
});

test("a link comparing from a moment compares it with the moment it is opened", async ({
  page,
}) => {
  const opened = Date.now();
  await openCountries(page, `&view=compare&from=${encodeURIComponent(iso(m1))}`, "compare-title");
  await expect.poll(() => param(page, "to")).not.toBeNull();
  const to = param(page, "to") as string;
  expect(Date.parse(to)).toBeGreaterThanOrEqual(opened);
  await expect(page.getByTestId("compare-from-moment")).toHaveValue(local(m1).input);
  await expect(page.getByTestId("compare-to-moment")).toHaveValue(local(Date.parse(to)).input);
  const expected = await countsBetween(iso(m1), to);
  await expect(page.getByTestId("compare-count-Changed")).toHaveText(`Changed ${expected.Changed}`);
  await expect(page.getByTestId("compare-empty")).toHaveCount(0);
});

test("both ends chosen in the same moment are both kept", async ({ page }) => {
  await openCountries(page, "&view=compare", "compare-title");
  // Both inputs changed in one task: their timers report in the same tick, as on a busy machine
  // after the two were filled one after the other.
  await page.evaluate(
    ([from, to]) => {
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")?.set;
      for (const [testId, value] of [
        ["compare-from-moment", from],
        ["compare-to-moment", to],
      ]) {
        const input = document.querySelector(`[data-testid="${testId}"]`) as HTMLInputElement;
        setValue?.call(input, value);
        input.dispatchEvent(new Event("input", { bubbles: true }));
      }
    },
    [local(m1).input, local(m2).input],
  );
  await expect.poll(() => param(page, "to")).toBe(iso(m2));
  expect(param(page, "from")).toBe(iso(m1));
  await expect(page.getByTestId("compare-from-moment")).toHaveValue(local(m1).input);
  await expect(page.getByTestId("compare-empty")).toHaveCount(0);
});

test("a record's history leads to the type as of each approved change", async ({ page }) => {
  await openCountries(page);
  await showOnlyOurs(page);
  await rowOf(page, code.a).dblclick();
  const editor = page.getByTestId("record-editor-modal");
  await editor.getByRole("tab", { name: "History" }).click();
  const events = editor.getByTestId("history-event");
  await expect(events).toHaveCount(2);
  const link = (event: Locator) =>
    event.getByRole("link", { name: "View Country as of this change" });
  await expect(link(events.first())).toBeVisible();
  await shot(page, "history-03-record-history");

  // The newest change: the population became 2500.
  await link(events.first()).click();
  await expect(editor).toHaveCount(0);
  await expect(banner(page)).toBeVisible();
  await expect(page).toHaveURL(/asOf=/);
  await expect(rowOf(page, code.a).locator("td").nth(EXPLORER.population)).toHaveText("2500");

  // The first change (its creation): 1000, and nothing yet of the changes after it.
  await page.goBack();
  await expect(banner(page)).toHaveCount(0);
  await rowOf(page, code.a).dblclick();
  await editor.getByRole("tab", { name: "History" }).click();
  await link(events.last()).click();
  await expect(banner(page)).toBeVisible();
  await expect(rowOf(page, code.a).locator("td").nth(EXPLORER.population)).toHaveText("1000");
  await expect(rowOf(page, code.c)).toHaveCount(0);
});

test("an approved upload is an end of a comparison, also in its link", async ({ page }) => {
  const uploads = await post<{ uploadId: number; approvedAt: string }[]>(
    steward.api,
    "/api/approved-uploads",
    { context: REFERENCE.name, entityType: "country" },
  );
  const upload = uploads.find((u) => u.uploadId === uploadId);
  expect(upload).toBeDefined();
  const label = `#${uploadId} ${uploadFile} (approved ${local(Date.parse(upload?.approvedAt ?? "")).text})`;

  await openCountries(page, `&view=compare&from=${encodeURIComponent(iso(m2))}`, "compare-title");
  await expect(page.getByTestId("compare-from-moment")).toHaveValue(local(m2).input);
  // Compared with now until the upload is chosen as the other end.
  await expect.poll(() => param(page, "to")).not.toBeNull();
  await page.getByTestId("compare-to-kind").selectOption("upload");
  await page.getByTestId("compare-to-upload").selectOption({ label });
  await expect.poll(() => param(page, "to")).toBe(`upload:${uploadId}`);

  const expected = await countsBetween(iso(m2), uploadId);
  expect(expected.Added).toBeGreaterThanOrEqual(1);
  await expect(page.getByTestId("compare-count-Added")).toHaveText(`Added ${expected.Added}`);
  await page.getByTestId("compare-kind-filter").selectOption("Added");
  await page.getByTestId("page-size").selectOption("0");
  await expect(compareRow(page, code.u).locator("td").first()).toHaveText("Added");
  await expect(compareRow(page, code.a)).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId("compare-to-kind")).toHaveValue("upload");
  await expect(page.getByTestId("compare-to-upload")).toHaveValue(String(uploadId));
});
