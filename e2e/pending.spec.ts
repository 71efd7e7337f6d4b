import { expect, type Locator, type Page, test } from "@playwright/test";
import { type Person, post } from "./support/api.ts";
import { signIn } from "./support/app.ts";
import { expectChangedCell, filterByIsoCode } from "./support/change-cells.ts";
import { referenceTeam } from "./support/countries.ts";
import { downloadWorkbook } from "./support/downloads.ts";
import { openPendingOf } from "./support/pending.ts";
import { shot } from "./support/screenshots.ts";
import { REFERENCE, solo } from "./support/users.ts";

/**
 * Pending changes: a steward proposes changes to countries of its own (codes no other spec uses,
 * longer than any ISO code), an approver reviews, approves, rejects and runs 'Approve as
 * verified' on them. Every test filters the list down to its own countries and leaves none of
 * them pending, so the counts other specs see (the upload leaves 10 changes) stay as they were.
 * Approved test countries use US dollars and are no EU members: the explorer spec counts those.
 */

type Values = Record<string, string | number | boolean | null>;

interface SaveAnswer {
  entityKeyID: number;
  entityEventID: number | null;
  pending: boolean;
}

interface CountryRecord {
  keyAttrValues: { iso2: string };
  requested: { attrValues: Record<string, { value: unknown }>; isDeleted: boolean };
  pending?: { action: string; entityEventID: number }[];
}

const run = Date.now().toString(36).slice(-5).toUpperCase();
let usd = 0;
let steward: Person;
let approver: Person;

test.beforeAll(async () => {
  ({ steward, approver, usd } = await referenceTeam("pending", run));
});

test.afterAll(async () => {
  await steward?.api.dispose();
  await approver?.api.dispose();
});

/** Codes of one test: `ZZ<run><letter>` plus a digit, never an ISO code. */
const prefixOf = (letter: string) => `ZZ${run}${letter}`;

async function save(record: Values, action: "create" | "update"): Promise<SaveAnswer> {
  return post<SaveAnswer>(steward.api, "/api/save", {
    context: REFERENCE.name,
    entityType: "country",
    action,
    record,
  });
}

/** The steward proposes a country; it waits for approval. */
async function propose(iso2: string, extra: Values = {}): Promise<SaveAnswer> {
  const answer = await save(
    { iso2, name: `Testland ${iso2}`, currency: usd, population: 1000, ...extra },
    "create",
  );
  expect(answer.pending).toBe(true);
  return answer;
}

async function decide(verb: "approve" | "reject", ids: (number | null)[]): Promise<void> {
  await post(approver.api, `/api/${verb}`, {
    context: REFERENCE.name,
    entityType: "country",
    entityEventIds: ids,
  });
}

/** A country that exists, approved. */
async function approvedCountry(iso2: string, extra: Values = {}): Promise<void> {
  await decide("approve", [(await propose(iso2, extra)).entityEventID]);
}

/** The countries of a test, pending or not, with their pending changes. */
async function countries(prefix: string, pendingOnly = false): Promise<CountryRecord[]> {
  const list = await post<{ data: CountryRecord[] }>(approver.api, "/api/entity", {
    context: REFERENCE.name,
    entityType: "country",
    includeDeleted: true,
    requirePending: pendingOnly || undefined,
    pageSize: 0,
    rowConstraints: [{ attribute: "iso2", operator: "StartsWith", values: [prefix] }],
  });
  return list.data;
}

/** Rejects whatever a test left pending. */
async function rejectLeftovers(prefix: string): Promise<void> {
  const ids = (await countries(prefix, true)).flatMap((c) =>
    (c.pending ?? []).map((p) => p.entityEventID),
  );
  if (ids.length > 0) await decide("reject", ids);
}

const rows = (page: Page): Locator => page.getByTestId("pending-row");
const position = (page: Page): Locator => page.getByTestId("position-message");
const cell = (row: Locator, column: number): Locator => row.locator("td").nth(column);
const COLUMN = { type: 0, date: 1, iso2: 2, name: 3, currency: 4, population: 6 } as const;
/** The change-kind label of a row (the cell may also hold a rule-breach badge: test codes are no ISO codes). */
const kind = (row: Locator): Locator => cell(row, COLUMN.type).getByTestId("change-kind");

/** Signs in, opens Pending changes on Country and lists only the countries of one test. */
async function openCountryChanges(page: Page, user: Person, prefix: string): Promise<void> {
  await openPendingOf(page, user, "Country");
  // Rows move up while the panel folds away: click them once it has, and the filter applied.
  await filterByIsoCode(page, prefix);
  await expect(page.getByTestId("filters-pending")).toHaveCount(0);
  await expect(page.getByTestId("pending-loading")).toHaveCount(0);
}

async function confirmDecision(page: Page, label: string): Promise<void> {
  const modal = page.getByTestId("decision-confirm");
  await modal.getByRole("button", { name: label, exact: true }).click();
  await expect(modal).toBeHidden();
}

test("an approver sees the coloured changes and approves one after confirming the counts", async ({
  page,
}, testInfo) => {
  const prefix = prefixOf("A");
  await approvedCountry(`${prefix}1`, { population: 1000 });
  await save({ iso2: `${prefix}1`, population: 2500, joined_eu: "2020-02-02" }, "update");
  await propose(`${prefix}2`, { population: 777 });

  await openCountryChanges(page, approver, prefix);
  await expect(position(page)).toHaveText("1 - 2 of 2 results");
  await expect(page.getByRole("columnheader")).toHaveText([
    "Change type",
    "Change date",
    "ISO code",
    "Name",
    "Currency",
    "Region",
    "Population",
    "Joined EU",
    "EU member",
    "Verified on",
  ]);
  const update = rows(page).filter({ hasText: `${prefix}1` });
  const create = rows(page).filter({ hasText: `${prefix}2` });
  await expect(kind(update)).toHaveText("Updated");
  await expect(cell(update, COLUMN.date)).toHaveText(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/);

  // Changed: the old value struck through in orange, the new one on yellow.
  const population = cell(update, COLUMN.population);
  await expectChangedCell(population, "1000", "2500");
  // Filled where it was empty: a new value, green. Untouched: white.
  await expect(cell(update, 7)).toHaveAttribute("data-change", "new");
  await expect(cell(update, 7)).toHaveText("2020-02-02");
  await expect(cell(update, COLUMN.name)).toHaveAttribute("data-change", "unchanged");
  await expect(cell(update, COLUMN.name)).toHaveCSS("background-color", "rgb(255, 255, 255)");
  await expect(cell(update, COLUMN.name)).toHaveText(`Testland ${prefix}1`);
  // A proposed record: every filled value new, in green.
  await expect(kind(create)).toHaveText("Created");
  for (const column of [COLUMN.iso2, COLUMN.name, COLUMN.currency, COLUMN.population]) {
    await expect(cell(create, column)).toHaveAttribute("data-change", "new");
    await expect(cell(create, column)).toHaveCSS("background-color", "rgb(209, 231, 221)");
  }
  await expect(cell(create, COLUMN.currency)).toHaveText("USD - US Dollar");
  await shot(page, "pending-02-coloured-rows");

  // 'Generate xlsx' writes the rows shown, old and new values side by side.
  const { name, workbook } = await downloadWorkbook(page, testInfo, async () => {
    await page.getByTestId("actions-toggle").click();
    await page.getByRole("button", { name: "Generate xlsx" }).click();
  });
  expect(name).toMatch(/^Report_.*\.xlsx$/);
  const sheet = workbook.worksheets[0];
  const header = sheet.getRow(1).values as unknown[];
  expect(header.slice(1, 6)).toEqual([
    "Change type",
    "Change date",
    "Changed by",
    "ISO code (old)",
    "ISO code (new)",
  ]);
  const populationOld = header.indexOf("Population (old)");
  const updated = sheet.getRows(2, 2)?.find((r) => r.getCell(5).value === `${prefix}1`);
  expect(updated?.getCell(1).value).toBe("Updated");
  expect(updated?.getCell(3).value).toBe(steward.username);
  expect(updated?.getCell(populationOld).value).toBe(1000);
  expect(updated?.getCell(populationOld + 1).value).toBe(2500);

  await update.click();
  await expect(page.getByTestId("selection-status")).toHaveText("1 selected");
  await page.getByTestId("approve-selected").click();
  const modal = page.getByTestId("decision-confirm");
  await expect(modal.getByRole("heading")).toHaveText("Approve changes");
  await expect(modal).toContainText(
    "Please confirm that you want to approve the selected changes of Country:",
  );
  await expect(modal.getByTestId("decision-count-Update")).toHaveText(/Updated\s*1/);
  await expect(modal.getByTestId("decision-total")).toHaveText(/Total\s*1/);
  await shot(page, "pending-03-approve-confirmation");
  await confirmDecision(page, "Approve");

  await expect(page.getByTestId("toast").filter({ hasText: "Approve response" })).toContainText(
    "1 change approved",
  );
  await expect(position(page)).toHaveText("1 - 1 of 1 results");
  await expect(kind(rows(page).first())).toHaveText("Created");
  await expect(page.getByTestId("selection-status")).toHaveText("No changes selected");
  const [approved] = await countries(`${prefix}1`);
  expect(approved.requested.attrValues.population.value).toBe(2500);
  expect(approved.pending).toBeUndefined();

  await rejectLeftovers(prefix);
});

test("rejects a proposed country; a steward may review but not decide", async ({ page }) => {
  const prefix = prefixOf("B");
  await propose(`${prefix}1`);

  await openCountryChanges(page, steward, prefix);
  await expect(position(page)).toHaveText("1 - 1 of 1 results");
  await expect(page.getByTestId("review-only")).toBeVisible();
  await expect(page.getByTestId("approve-selected")).toHaveCount(0);
  await page.getByRole("button", { name: "Log out" }).click();

  await openCountryChanges(page, approver, prefix);
  await expect(position(page)).toHaveText("1 - 1 of 1 results");
  await expect(page.getByTestId("approve-selected")).toBeDisabled();
  await expect(page.getByTestId("reject-selected")).toBeDisabled();
  await rows(page).first().click();
  await page.getByTestId("reject-selected").click();
  const modal = page.getByTestId("decision-confirm");
  await expect(modal.getByRole("heading")).toHaveText("Reject changes");
  await expect(modal.getByTestId("decision-count-Create")).toHaveText(/Created\s*1/);
  await confirmDecision(page, "Reject");

  await expect(page.getByTestId("toast").filter({ hasText: "Reject response" })).toContainText(
    "1 change rejected",
  );
  await expect(position(page)).toHaveText("0 - 0 of 0 results");
  await expect(page.getByTestId("pending-empty")).toHaveText("No pending changes");
  // A rejected proposal never becomes a record.
  expect(await countries(prefix)).toEqual([]);
});

test("selects a range with shift-click and rejects 'all' that the filters match", async ({
  page,
}) => {
  const prefix = prefixOf("C");
  for (const n of [1, 2, 3, 4]) await propose(`${prefix}${n}`);

  await openCountryChanges(page, approver, prefix);
  await expect(position(page)).toHaveText("1 - 4 of 4 results");
  await expect(page.getByTestId("page-size")).toHaveValue("20");
  await expect(page.getByTestId("page-size").locator("option")).toHaveText(
    "10 20 30 40 50 100 150 200 300 400 500".split(" "),
  );
  const status = page.getByTestId("selection-status");
  await rows(page).nth(0).click();
  await rows(page)
    .nth(2)
    .click({ modifiers: ["Shift"] });
  await expect(status).toHaveText("3 selected");
  for (const [index, selected] of [true, true, true, false].entries()) {
    await expect(rows(page).nth(index)).toHaveAttribute("aria-selected", String(selected));
  }
  await rows(page)
    .nth(1)
    .click({ modifiers: ["ControlOrMeta"] });
  await expect(status).toHaveText("2 selected");
  await expect(rows(page).nth(1)).toHaveAttribute("aria-selected", "false");
  await rows(page).nth(3).click();
  await expect(status).toHaveText("1 selected");
  await shot(page, "pending-04-range-selection");

  // The change-type filter narrows the list to one kind.
  await page.getByTestId("change-type-filter").selectOption({ label: "Deleted" });
  await expect(position(page)).toHaveText("0 - 0 of 0 results");
  await page.getByTestId("change-type-filter").selectOption({ label: "Created" });
  await expect(position(page)).toHaveText("1 - 4 of 4 results");

  await page.getByTestId("reject-menu").click();
  await page.getByTestId("reject-all").click();
  const modal = page.getByTestId("decision-confirm");
  await expect(modal).toContainText(
    "Please confirm that you want to reject every pending change of Country that matches the current filters:",
  );
  await expect(modal.getByTestId("decision-count-Create")).toHaveText(/Created\s*4/);
  await expect(modal.getByTestId("decision-total")).toHaveText(/Total\s*4/);
  await confirmDecision(page, "Reject");
  await expect(page.getByTestId("toast").filter({ hasText: "Reject response" })).toContainText(
    "4 changes rejected",
  );
  await expect(position(page)).toHaveText("0 - 0 of 0 results");
  expect(await countries(prefix, true)).toEqual([]);
});

test("'Approve as verified' runs on created and updated countries, never with a deletion", async ({
  page,
}) => {
  const prefix = prefixOf("D");
  await approvedCountry(`${prefix}1`);
  await approvedCountry(`${prefix}3`);
  await save({ iso2: `${prefix}1`, population: 4242 }, "update");
  await propose(`${prefix}2`);
  await post(steward.api, "/api/delete", {
    context: REFERENCE.name,
    entityType: "country",
    entityKeyIds: await countriesWithKeys(`${prefix}3`),
  });

  await openCountryChanges(page, approver, prefix);
  await expect(position(page)).toHaveText("1 - 3 of 3 results");
  const verify = page.getByTestId("custom-action-approve_as_verified");
  await expect(verify).toHaveText("Approve as verified");
  await expect(verify).toBeDisabled();

  const deletion = rows(page).filter({ hasText: `${prefix}3` });
  await expect(kind(deletion)).toHaveText("Deleted");
  const struck = cell(deletion, COLUMN.name).getByTestId("old-value");
  await expect(struck).toHaveCSS("text-decoration-line", "line-through");
  await expect(struck).toHaveCSS("color", "rgb(220, 53, 69)");
  await deletion.click();
  await expect(verify).toBeDisabled();
  await expect(verify.locator("..")).toHaveAttribute(
    "title",
    "'Approve as verified' cannot run on Deleted changes",
  );

  await rows(page)
    .filter({ hasText: `${prefix}1` })
    .click();
  await rows(page)
    .filter({ hasText: `${prefix}2` })
    .click({ modifiers: ["ControlOrMeta"] });
  await expect(page.getByTestId("selection-status")).toHaveText("2 selected");
  await expect(verify).toBeEnabled();
  await deletion.click({ modifiers: ["ControlOrMeta"] });
  await expect(verify).toBeDisabled();
  await deletion.click({ modifiers: ["ControlOrMeta"] });
  await verify.click();

  const modal = page.getByTestId("decision-confirm");
  await expect(modal.getByRole("heading")).toHaveText("Approve as verified");
  await expect(modal).toContainText("run 'Approve as verified' on the selected changes of Country");
  await expect(modal.getByTestId("decision-count-Create")).toHaveText(/Created\s*1/);
  await expect(modal.getByTestId("decision-count-Update")).toHaveText(/Updated\s*1/);
  await expect(modal.getByTestId("decision-total")).toHaveText(/Total\s*2/);
  await confirmDecision(page, "Run");

  await expect(
    page.getByTestId("toast").filter({ hasText: "Approve as verified response" }),
  ).toContainText("2 changes processed by 'Approve as verified'");
  await expect(position(page)).toHaveText("1 - 1 of 1 results");
  await expect(kind(rows(page).first())).toHaveText("Deleted");
  for (const iso2 of [`${prefix}1`, `${prefix}2`]) {
    const [verified] = await countries(iso2);
    expect(verified.requested.attrValues.verified_on.value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  }

  await rejectLeftovers(prefix);
});

/** Key ids of the countries whose code starts so. */
async function countriesWithKeys(prefix: string): Promise<number[]> {
  const list = await post<{ data: { entityKeyID: number }[] }>(approver.api, "/api/entity", {
    context: REFERENCE.name,
    entityType: "country",
    pageSize: 0,
    rowConstraints: [{ attribute: "iso2", operator: "StartsWith", values: [prefix] }],
  });
  return list.data.map((r) => r.entityKeyID);
}

/** What the badge should read: the summary's changes of types the approver may approve (all). */
async function awaitingOfApprover(): Promise<number> {
  const summary = await post<{ counts: Record<string, number> }[]>(
    approver.api,
    "/api/getpendingsummary",
    { context: REFERENCE.name },
  );
  return summary.reduce(
    (sum, row) => sum + Object.values(row.counts).reduce((a, b) => a + b, 0),
    0,
  );
}

test("the home page shows how many changes await the user's approval", async ({ page }) => {
  const prefix = prefixOf("E");
  await propose(`${prefix}1`);

  await signIn(page, approver);
  const badge = page.getByTestId("home-card-pending").getByTestId("pending-badge");
  // Other specs may add or decide changes meanwhile: compare with the summary of the same moment.
  await expect
    .poll(async () => {
      const before = await awaitingOfApprover();
      await page.reload();
      const shown = Number((await badge.textContent())?.match(/^\d+/)?.[0] ?? "0");
      const after = await awaitingOfApprover();
      return before === after && shown === after && shown >= 1;
    })
    .toBe(true);
  await expect(badge).toHaveAttribute("title", "Changes awaiting your approval");
  await shot(page, "pending-01-home-badge");

  // The overview and the side navigation count the same changes by type.
  await page.getByTestId("home-card-pending").getByRole("link").click();
  await expect(page.getByTestId("pending-overview")).toBeVisible();
  await expect(page.getByTestId("type-count-country")).toHaveText(/^[1-9]\d*/);
  await shot(page, "pending-05-overview");
  await page
    .getByTestId("type-sidenav")
    .getByRole("button", { name: /Country/ })
    .click();
  await expect(page).toHaveURL(/\/pending\?context=reference&type=country$/);
  await expect(page.getByTestId("count-Create")).toHaveText(/^Created [1-9]\d*$/);
  await page.getByTestId("pending-back").click();
  await expect(page.getByTestId("pending-overview")).toBeVisible();
  await expect(page).toHaveURL(/\/pending\?context=reference$/);

  // A viewer may approve nothing: no badge, although changes wait.
  await page.getByRole("button", { name: "Log out" }).click();
  await signIn(page, solo);
  await expect(page.getByTestId("home-card-pending")).toBeVisible();
  await expect(page.getByTestId("pending-badge")).toHaveCount(0);

  await rejectLeftovers(prefix);
});
