import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, type Page, test } from "@playwright/test";
import { PAGE_TITLES } from "../packages/web/src/app/page-titles.ts";
import { FROM_PAGE } from "./support/api.ts";
import { chooseContext, signIn } from "./support/app.ts";
import { expectAccessible } from "./support/axe.ts";
import { referenceTeam, rejectUpload, uploadCountries } from "./support/countries.ts";
import { makeDictionaryFixture } from "./support/dictionary.ts";
import { openPendingOf } from "./support/pending.ts";
import { admin, DICTIONARY, REFERENCE } from "./support/users.ts";

// Every test here scans screens with axe, twice each (both themes): seconds a scan on 2 busy
// cores, where a scan of the explorer took 20 s in a loaded CI run. The timeout is the guard
// against a hang, not a measure of speed.
test.describe.configure({ timeout: 300_000 });

/*
 * Issue 49: axe-core with the WCAG 2.0/2.1/2.2 A and AA rules on every screen of the route table
 * and on the states users spend their time in (menus, modals, a filter tab, a change set, an
 * upload's result, 'As of' and 'Compare', the login page with and without company sign-in).
 * Nothing here writes what other specs count: the upload seeded for the pending screen is
 * rejected at the end, the other uploads are refusals or 'Check only' runs.
 */

const source = (file: string) =>
  readFileSync(fileURLToPath(new URL(`../packages/web/src/${file}`, import.meta.url)), "utf8");

/** Every path the web app routes, read from its route tables ('' is the index route). */
function routedPaths(): string[] {
  const text = source("app/routes.tsx") + source("features/dictionary/dictionary-routes.tsx");
  const paths = [...text.matchAll(/path: "([^"]+)"/g)].map((m) => m[1]);
  const index = text.includes("index: true") ? [""] : [];
  return [...index, ...paths].filter((p) => p !== "/" && p !== "*");
}

type Context = typeof REFERENCE | typeof DICTIONARY | null;

interface Screen {
  /** The route's path as the route table writes it. */
  route: string;
  /** How the scan opens it; a function when it needs data made first. */
  open: (page: Page) => Promise<void>;
  context: Context;
}

const at =
  (url: string) =>
  async (page: Page): Promise<void> => {
    await page.goto(url);
  };

/** The screens of the route table, each opened by an administrator who is also a developer. */
const SCREENS: Screen[] = [
  { route: "", open: at("/"), context: REFERENCE },
  {
    route: "errornotification/:message",
    open: at("/errornotification/ERR_UNKNOWN_PATH"),
    context: null,
  },
  { route: "upload", open: at("/upload"), context: REFERENCE },
  { route: "explorer", open: at("/explorer?context=reference"), context: REFERENCE },
  { route: "pending", open: at("/pending?context=reference"), context: REFERENCE },
  { route: "notifications", open: at("/notifications"), context: REFERENCE },
  { route: "tokens", open: at("/tokens"), context: REFERENCE },
  { route: "account", open: at("/account"), context: REFERENCE },
  { route: "usermanagement", open: at("/usermanagement"), context: REFERENCE },
  { route: "rolemanagement", open: at("/rolemanagement"), context: REFERENCE },
  { route: "audit", open: at("/audit"), context: REFERENCE },
  { route: "webhooks", open: at("/webhooks"), context: REFERENCE },
  { route: "theme", open: at("/theme"), context: REFERENCE },
  { route: "DevConsole", open: at("/DevConsole"), context: REFERENCE },
  { route: "testdate", open: at("/testdate"), context: REFERENCE },
  { route: "search", open: at("/search?q=Country"), context: REFERENCE },
  { route: "wikimanager", open: at("/wikimanager"), context: DICTIONARY },
  { route: "system-environment", open: at("/system-environment"), context: DICTIONARY },
  {
    route: "system-environment/create",
    open: at("/system-environment/create"),
    context: DICTIONARY,
  },
  {
    route: "system-environment/edit/:id",
    open: async (page) => {
      const fixture = await makeDictionaryFixture(page.request);
      await page.goto(`/system-environment/edit/${fixture.environmentId}`);
    },
    context: DICTIONARY,
  },
  { route: "metadata-source/create", open: at("/metadata-source/create"), context: DICTIONARY },
  {
    route: "metadata-source/edit/:id",
    open: async (page) => {
      const fixture = await makeDictionaryFixture(page.request, { source: true });
      await page.goto(`/metadata-source/edit/${fixture.sourceId}`);
    },
    context: DICTIONARY,
  },
  {
    route: "system-environment-attempt-1",
    open: at("/system-environment-attempt-1"),
    context: DICTIONARY,
  },
  { route: "test", open: at("/test"), context: DICTIONARY },
];

/** Waits until the screen has loaded what it shows: no request under way, no spinner. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle");
  await expect(page.locator("main")).not.toBeEmpty();
  await expect(page.locator("main .spinner-border")).toHaveCount(0);
}

/**
 * The page reflows without scrolling sideways (WCAG 1.4.10) at 320 CSS px, and at 640, which is
 * what a 1280 px window shows at 200 % zoom (1.4.4). Data tables scroll inside their own frame.
 */
async function expectReflow(page: Page, what: string): Promise<void> {
  const before = page.viewportSize();
  for (const width of [320, 640]) {
    await page.setViewportSize({ width, height: 700 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.scrollWidth), {
        message: `the page's width at ${width} px: ${what}`,
      })
      .toBeLessThanOrEqual(width);
  }
  if (before) await page.setViewportSize(before);
}

test("every route of the web app has a title naming its screen", () => {
  const untitled = routedPaths().filter((path) => PAGE_TITLES[path] === undefined);
  expect(untitled, "routes without a title in packages/web/src/app/page-titles.ts").toEqual([]);
});

test("every route of the web app has a scan here", () => {
  const scanned = new Set([...SCREENS.map((s) => s.route), "login"]);
  const unscanned = routedPaths().filter((path) => !scanned.has(path));
  expect(unscanned, "routes without an accessibility scan in e2e/accessibility.spec.ts").toEqual(
    [],
  );
});

test.describe("every screen of the route table", () => {
  for (const context of [REFERENCE, DICTIONARY, null]) {
    const screens = SCREENS.filter((s) => s.context === context);
    test(`screens ${context ? `of ${context.uiName}` : "without an application"}`, async ({
      page,
    }) => {
      // Each screen is scanned twice (both themes): minutes on a busy machine.
      test.setTimeout(360_000);
      await signIn(page, admin);
      if (context) await chooseContext(page, context.uiName);
      for (const screen of screens) {
        await screen.open(page);
        await settled(page);
        await expect(page).toHaveTitle(`${PAGE_TITLES[screen.route]} – Ledgerline`);
        await expectAccessible(page, `/${screen.route}`);
        await expectReflow(page, `/${screen.route}`);
      }
    });
  }
});

test.describe("the login page", () => {
  test("with company sign-in, and its error alert", async ({ page }) => {
    await page.goto("/login");
    await expect(page.getByRole("link", { name: /^Sign in with / })).toBeVisible();
    await expectAccessible(page, "login with company sign-in");
    await page.getByLabel("Username").fill(admin.username);
    await page.getByLabel("Password").fill("wrong-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByTestId("login-error")).toBeVisible();
    await expectAccessible(page, "login with an error");
  });

  test("without company sign-in", async ({ page }) => {
    await page.route("**/app-config.json", async (route) => {
      const response = await route.fetch();
      const { oidc: _oidc, ...config } = await response.json();
      await route.fulfill({ response, json: config });
    });
    await page.goto("/login");
    await expect(page.getByLabel("Username")).toBeVisible();
    await expect(page.getByRole("link", { name: /^Sign in with / })).toHaveCount(0);
    await expectAccessible(page, "login without company sign-in");
  });
});

test("the navigation bar's menus", async ({ page }) => {
  await signIn(page, admin);
  await chooseContext(page, DICTIONARY.uiName);
  await page.getByRole("button", { name: "Developer" }).click();
  await expect(page.getByRole("link", { name: "Developer Console" })).toBeVisible();
  await expectAccessible(page, "developer menu");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: "Administration" }).click();
  await expect(page.getByRole("link", { name: "Role management" })).toBeVisible();
  await expectAccessible(page, "administration menu");
  await page.keyboard.press("Escape");
  await page.getByRole("button", { name: /^\[User: / }).click();
  await expect(page.getByRole("button", { name: "Dark theme" })).toBeVisible();
  await expectAccessible(page, "user menu");
  await page.keyboard.press("Escape");
});

test("the explorer: menus, a filter tab, a record's modals, 'As of' and 'Compare'", async ({
  page,
}) => {
  await signIn(page, admin);
  await chooseContext(page, REFERENCE.uiName);
  await page.getByTestId("nav-explorer").click();
  await page.getByTestId("type-sidenav").getByRole("button", { name: "Country" }).click();
  await expect(page.getByTestId("record-row").first()).toBeVisible();
  await expectAccessible(page, "explorer of countries");

  await page.getByTestId("table-options").click();
  await expect(page.getByLabel("Trim cells")).toBeVisible();
  await expectAccessible(page, "explorer's table options");
  await page.getByTestId("table-options").click();

  await page.getByTestId("filter-toggle").click();
  await page.getByTestId("filter-panel").getByTestId("add-filter").click();
  await page.getByTestId("filter-panel").getByRole("button", { name: "Name", exact: true }).click();
  await expect(page.getByTestId("filter-row")).toHaveCount(1);
  await expectAccessible(page, "explorer's filter tab");
  await page.getByTestId("filter-toggle").click();

  await page.getByTestId("actions-toggle").click();
  await expect(page.getByRole("button", { name: "Compare", exact: true })).toBeVisible();
  await expectAccessible(page, "explorer's actions menu");
  await page.getByRole("button", { name: "Add new Country", exact: true }).click();
  await expect(page.getByTestId("add-record-modal")).toBeVisible();
  await expectAccessible(page, "add record modal");
  await page.getByTestId("add-record-modal").getByRole("button", { name: "Cancel" }).click();
  await expect(page.getByTestId("add-record-modal")).toBeHidden();

  await page.getByTestId("record-row").first().click();
  await page.getByTestId("actions-toggle").click();
  await page.getByRole("button", { name: "Edit", exact: true }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "edit record modal");
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toBeHidden();

  await page.getByLabel("As of").fill("2020-01-01T00:00");
  await expect(page.getByTestId("as-of-text")).toBeVisible();
  await settled(page);
  await expectAccessible(page, "explorer as of a moment");

  await page.getByTestId("actions-toggle").click();
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  await expect(page.getByTestId("compare-view")).toBeVisible();
  await settled(page);
  await expectAccessible(page, "compare view");
});

test("an upload's result and its refusal list", async ({ page }) => {
  const examples = (name: string) => fileURLToPath(new URL(`../examples/${name}`, import.meta.url));
  await signIn(page, admin);
  await chooseContext(page, REFERENCE.uiName);
  await page.getByTestId("nav-upload").click();
  const layout = page.getByLabel("File layout");
  await expect(layout.getByRole("option", { name: "Countries" })).toBeAttached();
  await layout.selectOption({ label: "Countries" });
  await page.getByRole("button", { name: "Advanced options" }).click();
  await expectAccessible(page, "upload form with its advanced options");
  await page.getByLabel("File", { exact: true }).setInputFiles(examples("countries-invalid.xlsx"));
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("upload-problems").getByRole("listitem").first()).toBeVisible();
  await expectAccessible(page, "an upload's refusal list");

  await layout.selectOption({ label: "Currencies" });
  await page.getByLabel("File", { exact: true }).setInputFiles(examples("currencies.xlsx"));
  await page.getByRole("button", { name: "Check only" }).click();
  await expect(page.getByTestId("upload-result").getByRole("heading")).toHaveText("success!");
  await expectAccessible(page, "an upload's result");
});

test("the pending screen with a change set, its menus and the confirmation", async ({ page }) => {
  const run = Date.now().toString(36).slice(-5).toUpperCase();
  const team = await referenceTeam("a11y", run);
  const fileName = `a11y-countries-${run}.xlsx`;
  const uploadId = await uploadCountries(team.steward, fileName, [`ZZ${run}A1`, `ZZ${run}A2`]);
  try {
    await openPendingOf(page, team.approver, "Country");
    await page.getByLabel("Change set").selectOption(`upload:${uploadId}`);
    await expect(page.getByTestId("position-message")).toHaveText("1 - 2 of 2 results");
    await expectAccessible(page, "pending changes of one upload");
    await page.getByTestId("pending-row").first().click();
    await page.getByTestId("approve-menu").click();
    await expect(page.getByTestId("approve-all")).toBeVisible();
    await expectAccessible(page, "pending approve menu");
    await page.getByTestId("approve-all").click();
    await expect(page.getByTestId("decision-confirm")).toBeVisible();
    await expectAccessible(page, "pending decision confirmation");
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("decision-confirm")).toBeHidden();
  } finally {
    await rejectUpload(team.approver, uploadId);
    await team.steward.api.dispose();
    await team.approver.api.dispose();
  }
});

test("administration modals and a token's secret", async ({ page }) => {
  await signIn(page, admin);
  await chooseContext(page, REFERENCE.uiName);
  await page.goto("/usermanagement");
  await page.getByRole("button", { name: "add user" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "new user modal");
  await page.keyboard.press("Escape");

  await page.goto("/webhooks");
  await settled(page);
  await page.getByRole("button", { name: "Add webhook" }).click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectAccessible(page, "new webhook modal");
  await page.keyboard.press("Escape");

  await page.goto("/tokens");
  const form = page.getByTestId("new-token");
  await form.getByLabel("Name").fill(`a11y-${Date.now().toString(36)}`);
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByTestId("new-token-secret")).toBeVisible();
  await expectAccessible(page, "a new token's secret");
});

test.describe("narrow and wide windows", () => {
  test("at 320 px wide the screens reflow without scrolling sideways (WCAG 1.4.10)", async ({
    page,
  }) => {
    await signIn(page, admin);
    await chooseContext(page, REFERENCE.uiName);
    // Tables with rows: a token of the administrator's, and the countries with one selected.
    const created = await page.request.post("/api/tokens/create", {
      headers: FROM_PAGE,
      data: { name: `narrow-${Date.now().toString(36)}`, scope: "read", expiresInDays: 1 },
    });
    expect(created.ok(), await created.text()).toBe(true);
    await page.setViewportSize({ width: 320, height: 700 });
    for (const url of [
      "/",
      "/upload",
      "/explorer?context=reference",
      "/pending?context=reference",
      "/notifications",
      "/tokens",
      "/usermanagement",
      "/rolemanagement",
      "/audit",
    ]) {
      await page.goto(url);
      await settled(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `the page's width at ${url}`).toBeLessThanOrEqual(320);
    }
    await page.goto("/explorer?context=reference");
    await settled(page);
    await page.getByTestId("type-sidenav").getByRole("button", { name: "Country" }).click();
    await page.getByTestId("record-row").first().click();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width, "the explorer's countries with one selected").toBeLessThanOrEqual(320);
  });

  // One row of the bar is 62 px high. Below 1920 px the Data Dictionary's two extra links show
  // as icons, named by their labels (docs/accessibility.md).
  for (const [width, context] of [
    [1280, REFERENCE.uiName],
    [1440, REFERENCE.uiName],
    [1280, DICTIONARY.uiName],
    [1600, DICTIONARY.uiName],
    [1920, DICTIONARY.uiName],
  ] as const) {
    test(`the navigation bar keeps to one row at ${width} px with '${context}' selected`, async ({
      page,
    }) => {
      await signIn(page, admin);
      await page.setViewportSize({ width, height: 800 });
      await chooseContext(page, context);
      const header = await page.locator("header").boundingBox();
      expect(header?.height).toBeLessThan(70);
      if (context === DICTIONARY.uiName) {
        const wiki = page.getByRole("link", { name: "Data wiki manager" });
        await expect(wiki).toBeInViewport({ ratio: 1 });
        await expect(wiki).toHaveAttribute("title", "Data wiki manager");
        // The label is the link's name at every width; it takes room only from 1920 px.
        const label = await wiki.getByText("Data wiki manager").boundingBox();
        expect((label?.width ?? 0) > 10).toBe(width >= 1920);
      }
      await expect(page.getByRole("button", { name: "Log out" })).toBeInViewport({ ratio: 1 });
    });
  }
});
