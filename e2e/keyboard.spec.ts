import { fileURLToPath } from "node:url";
import { expect, type Locator, type Page, test } from "@playwright/test";
import { referenceTeam, rejectUpload, uploadCountries } from "./support/countries.ts";
import { admin, DICTIONARY, REFERENCE } from "./support/users.ts";

/*
 * Issue 49: each main task with the keyboard alone (page.keyboard only, no clicks), and a visible
 * focus ring on every element the Tab key stops at on the way.
 */

const examples = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));

/** Whether the focused element draws a ring: an outline or a box shadow. */
async function expectFocusRing(page: Page): Promise<void> {
  const focus = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    // Past the last element the focus leaves the page for the browser: nothing to draw.
    if (!el || el === document.body) return { what: "the page", ring: true };
    // A date or time field shows its focus on the part being typed (a highlighted segment),
    // which computed styles of the field do not reveal.
    if (el instanceof HTMLInputElement && /^(date|time|datetime-local)$/.test(el.type)) {
      return { what: "a date field", ring: true };
    }
    const style = getComputedStyle(el);
    const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
    const what = `${el.tagName.toLowerCase()}.${el.className} [${el.getAttribute("type") ?? ""}] '${(el.getAttribute("aria-label") ?? el.textContent ?? "").trim().slice(0, 40)}'`;
    return { what, ring: outline || style.boxShadow !== "none" };
  });
  expect(focus.ring, `a visible focus ring on ${focus.what}`).toBe(true);
}

/** The dialog holds the focus (itself or one of its controls). */
async function expectFocusInside(dialog: Locator): Promise<void> {
  await expect.poll(() => dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
}

const hasFocus = (target: Locator) =>
  target.evaluate((el) => el === document.activeElement).catch(() => false);

/** Presses Tab (or Shift+Tab) until target has the focus, checking the ring at every stop. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  await expect(target).toBeVisible();
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? "Shift+Tab" : "Tab");
    await expectFocusRing(page);
    if (await hasFocus(target)) return;
  }
  throw new Error(`Tab did not reach ${target} in ${max} presses`);
}

/** Presses a key until target has the focus (arrow keys in menus and lists). */
async function pressTo(page: Page, key: string, target: Locator, max = 20) {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    if (await hasFocus(target)) return;
  }
  throw new Error(`${key} did not reach ${target} in ${max} presses`);
}

/** Signs in from the login page: Tab to the fields, type, Enter. */
async function signInByKeyboard(page: Page, user: { username: string; password: string }) {
  await page.goto("/login");
  await tabTo(page, page.getByLabel("Username"));
  await page.keyboard.type(user.username);
  await tabTo(page, page.getByLabel("Password"));
  await page.keyboard.type(user.password);
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId("nav-user")).toHaveText(`[User: ${user.username}]`);
}

/** Chooses an application in the navigation bar's selector with the arrow keys. */
async function chooseApplication(page: Page, uiName: string) {
  const select = page.locator("header").getByLabel("Application");
  await tabTo(page, select);
  for (let i = 0; i < 5; i++) {
    if ((await select.locator("option:checked").textContent()) === uiName) return;
    await page.keyboard.press("ArrowDown");
  }
  await expect(select.locator("option:checked")).toHaveText(uiName);
}

/** Follows a link of the main navigation with Tab and Enter. */
async function openByNav(page: Page, name: string) {
  await page.locator("body").focus();
  await tabTo(page, page.getByRole("navigation", { name: "Main" }).getByRole("link", { name }));
  await page.keyboard.press("Enter");
}

test("'Skip to content' leads each page and moves the focus to the screen", async ({ page }) => {
  await page.goto("/login");
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await expectFocusRing(page);
  await page.keyboard.press("Enter");
  await expect(page.locator("main")).toBeFocused();
  await page.keyboard.press("Tab");
  // The next stop is inside the screen, not in the navigation bar.
  expect(await page.evaluate(() => document.activeElement?.closest("main") !== null)).toBe(true);
});

test("signs in, uploads a workbook and reads the result", async ({ page }) => {
  await signInByKeyboard(page, admin);
  await chooseApplication(page, REFERENCE.uiName);
  await openByNav(page, "Upload (xlsx)");
  await expect(page.getByRole("heading", { name: "XLSX upload" })).toBeVisible();
  const layout = page.getByLabel("File layout");
  await expect(layout.getByRole("option", { name: "Currencies" })).toBeAttached();
  await tabTo(page, layout);
  while ((await layout.locator("option:checked").textContent()) !== "Currencies") {
    await page.keyboard.press("ArrowDown");
  }
  // The file input opens the system's file chooser on Space; the test answers it.
  await tabTo(page, page.getByLabel("File", { exact: true }));
  const chooser = page.waitForEvent("filechooser");
  await page.keyboard.press("Space");
  await (await chooser).setFiles(examples("currencies.xlsx"));
  await tabTo(page, page.getByRole("button", { name: "Check only" }));
  await page.keyboard.press("Enter");
  const result = page.getByTestId("upload-result");
  await expect(result.getByRole("heading")).toHaveText("success!");
  // The result is announced (an alert) and its close button is the next Tab stop in it.
  await expect(result).toHaveAttribute("role", "alert");
  await tabTo(page, result.getByRole("button", { name: "Close" }));
  await page.keyboard.press("Enter");
  await expect(result).toHaveCount(0);
});

test("the rows of a table are one tab stop and move with the arrow keys", async ({ page }) => {
  await signInByKeyboard(page, admin);
  await chooseApplication(page, REFERENCE.uiName);
  await openByNav(page, "Data explorer");
  await tabTo(page, page.getByTestId("type-sidenav").getByRole("button", { name: "Country" }));
  await page.keyboard.press("Enter");
  // 300 rows a page: a long page renders only the rows in view, and the keys reach the others too.
  await page.getByTestId("page-size").selectOption("300");
  await expect(page.getByTestId("position-message")).toContainText(/^1 - \d{3} of/);
  const rows = page.getByTestId("record-row");
  await page.locator("body").focus();
  await tabTo(page, rows.first());
  const focusedIndex = () =>
    page.evaluate(() => document.activeElement?.getAttribute("data-index") ?? null);
  const expectFocusedRow = async (index: string) => {
    await expect.poll(focusedIndex).toBe(index);
    await expect(
      page.locator(`[data-testid="record-row"][data-index="${index}"]`),
    ).toBeInViewport();
    await expectFocusRing(page);
  };
  await page.keyboard.press("ArrowDown");
  await expectFocusedRow("1");
  await page.keyboard.press("PageDown");
  await expectFocusedRow("11");
  await page.keyboard.press("ArrowUp");
  await expectFocusedRow("10");
  await page.keyboard.press("End");
  // 'a - b of n results': the page's last row is number b - a.
  const [, from, to] = (await page.getByTestId("position-message").textContent())?.match(
    /(\d+) - (\d+) of/,
  ) ?? ["", "1", "1"];
  await expectFocusedRow(String(Number(to) - Number(from)));
  await page.keyboard.press("Home");
  await expectFocusedRow("0");
  // One tab stop: Tab leaves the table, Shift+Tab comes back to the row last focused.
  await page.keyboard.press("ArrowDown");
  await page.keyboard.press("Tab");
  await expect.poll(focusedIndex).toBeNull();
  await page.keyboard.press("Shift+Tab");
  await expectFocusedRow("1");
});

test("filters the explorer, sorts, pages, exports, and edits a record", async ({ page }) => {
  test.setTimeout(240_000);
  await signInByKeyboard(page, admin);
  await chooseApplication(page, REFERENCE.uiName);
  await openByNav(page, "Data explorer");
  await tabTo(page, page.getByTestId("type-sidenav").getByRole("button", { name: "Currency" }));
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("explorer-title")).toHaveText("Currency");

  // Filter: open the panel, add a 'Code' filter from its menu with the arrow keys.
  await tabTo(page, page.getByTestId("filter-toggle"));
  await page.keyboard.press("Enter");
  const panel = page.getByTestId("filter-panel");
  await tabTo(page, panel.getByTestId("add-filter"));
  await page.keyboard.press("Enter");
  await pressTo(page, "ArrowDown", panel.getByRole("button", { name: "Name", exact: true }));
  await page.keyboard.press("Enter");
  const row = panel.getByTestId("filter-row").last();
  await tabTo(page, row.getByLabel("Name value"));
  await page.keyboard.type("Dollar");
  await expect(page.getByTestId("position-message")).toHaveText(/^1 - \d+ of \d+ results$/);
  const filtered = await page.getByTestId("record-row").count();
  expect(filtered).toBeGreaterThan(1);

  // Sort by code, descending: Enter twice on the column's sort button.
  const sort = page.getByTestId("sort-code");
  await tabTo(page, sort);
  await page.keyboard.press("Enter");
  await expect(page.locator("th[aria-sort=ascending]")).toHaveText("Code");
  await page.keyboard.press("Enter");
  await expect(page.locator("th[aria-sort=descending]")).toHaveText("Code");

  // Page: clear the filter, then 'Next page'.
  await tabTo(page, row.getByLabel("Name value"), { back: true });
  await page.keyboard.press("Control+A");
  await page.keyboard.press("Backspace");
  await expect(page.getByTestId("position-message")).toHaveText(/^1 - 20 of \d+ results$/);
  await tabTo(page, page.getByTitle("Next page"));
  await page.keyboard.press("Enter");
  await expect(page.getByTestId("position-message")).toHaveText(/^21 - 40 of \d+ results$/);

  // Export: the actions menu, arrow keys to 'Generate xlsx', Enter.
  await tabTo(page, page.getByTestId("actions-toggle"));
  await page.keyboard.press("Enter");
  const download = page.waitForEvent("download");
  await pressTo(page, "ArrowDown", page.getByRole("button", { name: "Generate xlsx" }));
  await page.keyboard.press("Enter");
  expect((await download).suggestedFilename()).toMatch(/^Report_.*\.xlsx$/);

  // Edit: Space selects the focused row, Enter opens its editor; the editor takes the focus.
  const first = page.getByTestId("record-row").first();
  await tabTo(page, first);
  await page.keyboard.press("Enter");
  const editor = page.getByTestId("record-editor-modal");
  await expect(editor).toBeVisible();
  await expectFocusInside(page.getByRole("dialog"));
  const editName = editor.getByRole("button", { name: "Edit Name" });
  await tabTo(page, editName);
  await page.keyboard.press("Enter");
  const sub = page.getByTestId("edit-value-modal");
  await expect(sub).toBeVisible();
  await tabTo(page, sub.locator("textarea"));
  await page.keyboard.press("End");
  await page.keyboard.type(" (edited)");
  await tabTo(page, sub.getByRole("button", { name: "OK" }));
  await page.keyboard.press("Enter");
  await expect(sub).toBeHidden();
  // The sub-dialog gives the focus back: to the field's 'Undo', its 'Edit' being disabled now.
  await expect(editName).toBeDisabled();
  await expect(editor.getByRole("button", { name: "Undo Name" })).toBeFocused();
  await expect(editor.getByTestId("editor-value-name")).toContainText("(edited)");
  await page.keyboard.press("Enter");
  await expect(editName).toBeEnabled();
  await tabTo(page, editor.getByRole("button", { name: "Cancel" }));
  await page.keyboard.press("Enter");
  await expect(editor).toBeHidden();
});

test("approves one change, then a whole change set", async ({ page }) => {
  test.setTimeout(120_000);
  const run = Date.now().toString(36).slice(-5).toUpperCase();
  const team = await referenceTeam("keys", run);
  const single = await uploadCountries(team.steward, `keys-one-${run}.xlsx`, [`ZZ${run}K1`]);
  const set = await uploadCountries(team.steward, `keys-set-${run}.xlsx`, [
    `ZZ${run}K2`,
    `ZZ${run}K3`,
  ]);
  try {
    await signInByKeyboard(page, team.approver);
    await openByNav(page, "Pending changes");
    await tabTo(page, page.getByTestId("type-sidenav").getByRole("button", { name: /Country/ }));
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("pending-title")).toHaveText("Country");

    // One change: the change set of the first upload, Space on its row, then Approve.
    const changeSet = page.getByLabel("Change set");
    await tabTo(page, changeSet);
    while ((await changeSet.inputValue()) !== `upload:${single}`) {
      await page.keyboard.press("ArrowDown");
    }
    await expect(page.getByTestId("position-message")).toHaveText("1 - 1 of 1 results");
    await tabTo(page, page.getByTestId("pending-row").first());
    await page.keyboard.press("Space");
    const approve = page.getByTestId("approve-selected");
    await tabTo(page, approve, { back: true });
    await page.keyboard.press("Enter");
    const confirm = page.getByTestId("decision-confirm");
    await expect(confirm).toBeVisible();
    await expectFocusInside(page.getByRole("dialog"));
    await tabTo(page, confirm.getByRole("button", { name: "Approve", exact: true }));
    await page.keyboard.press("Enter");
    await expect(confirm).toBeHidden();
    await expect(page.getByTestId("toast").filter({ hasText: "Approve response" })).toContainText(
      "1 change approved",
    );

    // The whole second upload: its change set, then 'all' from the Approve menu.
    await tabTo(page, changeSet, { back: true });
    while ((await changeSet.inputValue()) !== `upload:${set}`) {
      await page.keyboard.press("ArrowDown");
    }
    await expect(page.getByTestId("position-message")).toHaveText("1 - 2 of 2 results");
    const menu = page.getByTestId("approve-menu");
    await tabTo(page, menu);
    await page.keyboard.press("Enter");
    await pressTo(page, "ArrowDown", page.getByTestId("approve-all"));
    await page.keyboard.press("Enter");
    await expect(confirm).toBeVisible();
    await tabTo(page, confirm.getByRole("button", { name: "Approve", exact: true }));
    await page.keyboard.press("Enter");
    await expect(confirm).toBeHidden();
    await expect(
      page.getByTestId("toast").filter({ hasText: "Approve response" }).last(),
    ).toContainText("2 changes approved");
  } finally {
    await rejectUpload(team.approver, single);
    await rejectUpload(team.approver, set);
    await team.steward.api.dispose();
    await team.approver.api.dispose();
  }
});

test("a modal takes the focus and gives it back; a menu moves with the arrow keys", async ({
  page,
}) => {
  await signInByKeyboard(page, admin);
  const menu = page.getByRole("button", { name: "Administration" });
  await tabTo(page, menu);
  await page.keyboard.press("Enter");
  await pressTo(page, "ArrowDown", page.getByRole("link", { name: "Role management" }));
  await pressTo(page, "ArrowUp", page.getByRole("link", { name: "User management" }));
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/usermanagement$/);

  const add = page.getByRole("button", { name: "add user" });
  await tabTo(page, add);
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expectFocusInside(dialog);
  // The focus never stays on the page behind the dialog: past its last control it passes to the
  // browser's own controls (the document's body here) and the next Tab brings it back. Should it
  // land behind (an element after the dialog's portal), the modal's focus trap takes it back on
  // its next tick, so the check waits for that rather than reading the moment in between.
  for (let i = 0; i < 15; i++) {
    await page.keyboard.press("Tab");
    await expect
      .poll(() =>
        dialog.evaluate((el) =>
          el.contains(document.activeElement)
            ? "dialog"
            : document.activeElement === document.body
              ? "browser"
              : "page",
        ),
      )
      .not.toBe("page");
  }
  await expectFocusInside(dialog);
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(add).toBeFocused();
});

test("the user menu's theme: arrow keys to 'Dark', remembered after a reload", async ({ page }) => {
  await signInByKeyboard(page, admin);
  const toggle = page.getByRole("button", { name: `[User: ${admin.username}]` });
  await tabTo(page, toggle);
  await page.keyboard.press("Enter");
  await pressTo(page, "ArrowDown", page.getByTestId("theme-dark"));
  await page.keyboard.press("Enter");
  await expect(page.locator("html")).toHaveAttribute("data-bs-theme", "dark");
  await page.reload();
  await expect(page.locator("html")).toHaveAttribute("data-bs-theme", "dark");
  // 'System' follows the system's colour scheme again.
  await page.emulateMedia({ colorScheme: "light" });
  await page.locator("body").focus();
  await tabTo(page, toggle);
  await page.keyboard.press("Enter");
  await pressTo(page, "ArrowDown", page.getByTestId("theme-system"));
  await page.keyboard.press("Enter");
  await expect(page.locator("html")).toHaveAttribute("data-bs-theme", "light");
  await page.emulateMedia({ colorScheme: "dark" });
  await expect(page.locator("html")).toHaveAttribute("data-bs-theme", "dark");
});

test("publishes the data dictionary", async ({ page }) => {
  await signInByKeyboard(page, admin);
  await chooseApplication(page, DICTIONARY.uiName);
  await openByNav(page, "Data wiki manager");
  await expect(
    page.getByRole("heading", { name: "Publish Data Dictionary to Wiki" }),
  ).toBeVisible();
  const publish = page.getByRole("button", { name: "Publish", exact: true });
  await expect(publish).toBeEnabled();
  await tabTo(page, publish);
  await page.keyboard.press("Enter");
  const result = page.getByTestId("publish-result");
  await expect(result).toHaveText(/^Published to git repository/, { timeout: 30_000 });
  // Announced: the result is an alert, the page count a polite live region.
  await expect(result).toHaveAttribute("role", "alert");
  await expect(page.getByTestId("publish-progress-count")).toHaveAttribute("aria-live", "polite");
});
