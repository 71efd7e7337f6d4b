import { expect, type Page, test } from "@playwright/test";
import { type Person, personWithRole, signedIn } from "./support/api.ts";
import { chooseContext, contextSelect, mainNav, signIn } from "./support/app.ts";
import { shot } from "./support/screenshots.ts";
import { admin, DICTIONARY, REFERENCE, solo } from "./support/users.ts";

/**
 * Links carry their application (issue 47, part 5): every address of the explorer (and its compare
 * view), the pending screen and the Data Dictionary pages names it (`context=<name>`), so a link
 * opens the same view whatever the person opening it had selected, or none; old links without it
 * find it by their type; a link the person may not follow says so plainly.
 */

// The as-of banner writes the moment in the browser's time: UTC here, as the expected text is.
test.use({ timezoneId: "UTC" });

const run = Date.now().toString(36).slice(-5).toLowerCase();

/** A whole second just past, in the address's form and as the banner shows it. */
function justPast(): { iso: string; text: string } {
  const moment = new Date(Math.floor(Date.now() / 1000) * 1000 - 2000);
  const iso = moment.toISOString();
  const text = `${iso.slice(0, 10).replaceAll("-", "/")} ${iso.slice(11, 19)}`;
  return { iso, text };
}

/** The parameters of the page's address, in their order. */
const paramsOf = (page: Page): [string, string][] => [...new URL(page.url()).searchParams];

/** The application shown as selected in the navigation bar. */
const selectedApplication = (page: Page) => contextSelect(page).locator("option:checked");

/** How the person opening a link had left the application selector. */
const BEFORE = [
  { name: "in a fresh session", select: null },
  { name: "after selecting the other application", select: DICTIONARY.uiName },
] as const;

/** The refusal a linked screen shows, and its exact text. */
const refusal = (page: Page) => page.getByTestId("link-refused-message");

let dictionaryOnly: Person;

test.beforeAll(async () => {
  const adminApi = await signedIn(admin.username, admin.password);
  // A role in the Data Dictionary only: the reference data's types are none of theirs.
  dictionaryOnly = await personWithRole(adminApi, {
    username: `links-dd-${run}`,
    context: DICTIONARY.name,
    role: "dictionary_viewer",
  });
  await adminApi.dispose();
});

test.afterAll(async () => {
  await dictionaryOnly?.api.dispose();
});

for (const before of BEFORE) {
  test.describe(`a link opened ${before.name}`, () => {
    test.beforeEach(async ({ page }) => {
      await signIn(page, admin);
      if (before.select) await chooseContext(page, before.select);
      else await expect(page.getByText("Please select an application")).toBeVisible();
    });

    test("to the explorer with application, type and moment opens that type as of then", async ({
      page,
    }) => {
      const moment = justPast();
      await page.goto(`/explorer?context=reference&type=country&asOf=${moment.iso}`);
      await expect(page.getByTestId("explorer-title")).toHaveText("Country");
      await expect(page.getByTestId("as-of-text")).toHaveText(
        `Showing Country as of ${moment.text}`,
      );
      await expect(selectedApplication(page)).toHaveText(REFERENCE.uiName);
      await expect(page.getByTestId("type-sidenav-title")).toHaveText("Reference Data data types");
      // The address keeps its application: copied again, it opens the same view.
      expect(paramsOf(page)).toEqual([
        ["context", "reference"],
        ["type", "country"],
        ["asOf", moment.iso],
      ]);
      if (before.select) await shot(page, "links-01-explorer-link-after-dictionary");
    });

    test("of the old form, without the application, finds it by the type", async ({ page }) => {
      const moment = justPast();
      await page.goto(`/explorer?type=country&asOf=${moment.iso}`);
      await expect(page.getByTestId("explorer-title")).toHaveText("Country");
      await expect(page.getByTestId("as-of-text")).toHaveText(
        `Showing Country as of ${moment.text}`,
      );
      await expect(selectedApplication(page)).toHaveText(REFERENCE.uiName);
      // The application found is written into the address, first.
      await expect
        .poll(() => paramsOf(page))
        .toEqual([
          ["context", "reference"],
          ["type", "country"],
          ["asOf", moment.iso],
        ]);
    });

    test("to the compare view opens it in its application", async ({ page }) => {
      const from = justPast();
      await page.goto(`/explorer?context=reference&type=country&view=compare&from=${from.iso}`);
      await expect(page.getByTestId("explorer-page")).toBeVisible();
      await expect(selectedApplication(page)).toHaveText(REFERENCE.uiName);
      await expect(page.getByTestId("type-sidenav-title")).toHaveText("Reference Data data types");
      // The moment it was opened becomes its end, beside the application.
      await expect
        .poll(() => paramsOf(page).map(([name]) => name))
        .toEqual(["context", "type", "view", "from", "to"]);
      expect(new URL(page.url()).searchParams.get("context")).toBe("reference");
    });

    test("to the pending changes of a type opens them", async ({ page }) => {
      await page.goto("/pending?context=reference&type=country");
      await expect(page.getByTestId("pending-title")).toHaveText("Country");
      await expect(selectedApplication(page)).toHaveText(REFERENCE.uiName);
      expect(paramsOf(page)).toEqual([
        ["context", "reference"],
        ["type", "country"],
      ]);
    });

    test("to a Data Dictionary page opens it in the Data Dictionary", async ({ page }) => {
      if (before.select) await chooseContext(page, REFERENCE.uiName);
      await page.goto("/system-environment?context=Data+Dictionary");
      await expect(
        page.getByRole("heading", { name: "System Environments", exact: true }),
      ).toBeVisible();
      await expect(selectedApplication(page)).toHaveText(DICTIONARY.uiName);
      await expect(page).toHaveURL(/\/system-environment\?context=Data\+Dictionary$/);

      await page.goto("/wikimanager?context=Data+Dictionary");
      await expect(
        page.getByRole("heading", { name: "Publish Data Dictionary to Wiki" }),
      ).toBeVisible();
      await expect(page).toHaveURL(/\/wikimanager\?context=Data\+Dictionary$/);
    });
  });
}

test("the navigation bar's application moves the address to the new application's view", async ({
  page,
}) => {
  await signIn(page, admin);
  await page.goto(`/explorer?context=reference&type=country&asOf=${justPast().iso}`);
  await expect(page.getByTestId("explorer-title")).toHaveText("Country");

  await chooseContext(page, DICTIONARY.uiName);
  await expect(page).toHaveURL(/\/explorer\?context=Data\+Dictionary$/);
  await expect(page.getByTestId("type-sidenav-title")).toHaveText("Data Dictionary data types");
  await expect(page.getByTestId("as-of-banner")).toHaveCount(0);
  // Choosing a type keeps the application in the address.
  await page
    .getByTestId("type-sidenav")
    .getByRole("button", { name: "Application", exact: true })
    .click();
  await expect(page.getByTestId("explorer-title")).toHaveText("Application");
  expect(paramsOf(page)).toEqual([
    ["context", DICTIONARY.name],
    ["type", "application"],
  ]);

  await page.goto("/pending?context=reference&type=country");
  await expect(page.getByTestId("pending-title")).toHaveText("Country");
  await chooseContext(page, DICTIONARY.uiName);
  await expect(page).toHaveURL(/\/pending\?context=Data\+Dictionary$/);
  await expect(page.getByTestId("type-sidenav-title")).toHaveText("Data Dictionary data types");

  // An address without its application (the navigation's own links) is given the selected one.
  await mainNav(page).getByRole("link", { name: "Data explorer", exact: true }).click();
  await expect(page).toHaveURL(/\/explorer\?context=Data\+Dictionary$/);
  // The navigation bar's choice took the place of the address it left (no step back to it);
  // a step back to an address of another application opens that application again.
  await page.goto("/explorer?context=reference&type=country");
  await expect(selectedApplication(page)).toHaveText(REFERENCE.uiName);
  await page.goto("/pending?context=Data+Dictionary");
  await expect(selectedApplication(page)).toHaveText(DICTIONARY.uiName);
  await page.goBack();
  await expect(page).toHaveURL(/\/explorer\?context=reference&type=country$/);
  await expect(page.getByTestId("explorer-title")).toHaveText("Country");
  await expect(selectedApplication(page)).toHaveText(REFERENCE.uiName);
});

test("another tab's choice of application moves the screen to it, and it stays there", async ({
  page,
  context,
}) => {
  await signIn(page, admin);
  await page.goto("/explorer?context=reference&type=country");
  await expect(page.getByTestId("explorer-title")).toHaveText("Country");

  const other = await context.newPage();
  await other.goto("/");
  await chooseContext(other, DICTIONARY.uiName);

  await expect(page).toHaveURL(/\/explorer\?context=Data\+Dictionary$/);
  await expect(page.getByTestId("type-sidenav-title")).toHaveText("Data Dictionary data types");
  // Neither tab takes its application back from the other.
  await page.waitForTimeout(1000);
  await expect(page).toHaveURL(/\/explorer\?context=Data\+Dictionary$/);
  await expect(selectedApplication(other)).toHaveText(DICTIONARY.uiName);
  await other.close();
});

test.describe("a link the person may not follow says so plainly", () => {
  test("an application, or a type, that is none of theirs", async ({ page }) => {
    await signIn(page, dictionaryOnly);
    await expect(selectedApplication(page)).toHaveText(DICTIONARY.uiName);

    await page.goto(`/explorer?context=reference&type=country&asOf=${justPast().iso}`);
    await expect(refusal(page)).toHaveText("There is no application 'reference' you may use.");
    await expect(page.getByTestId("explorer-view")).toHaveCount(0);
    await shot(page, "links-02-refused-application");

    await page.goto(`/explorer?type=country&asOf=${justPast().iso}`);
    await expect(refusal(page)).toHaveText(
      "There is no data type 'country' you may read in your applications.",
    );

    await page.goto("/explorer?context=Data+Dictionary&type=country");
    await expect(refusal(page)).toHaveText(
      "There is no data type 'country' you may read in Data Dictionary.",
    );

    await page.goto("/pending?context=reference&type=country");
    await expect(refusal(page)).toHaveText("There is no application 'reference' you may use.");
    await expect(page.getByTestId("pending-view")).toHaveCount(0);

    // Nothing of the refused links changed the selection.
    await expect(selectedApplication(page)).toHaveText(DICTIONARY.uiName);
  });

  test("a Data Dictionary page for someone without the Data Dictionary", async ({ page }) => {
    await signIn(page, solo);
    await page.goto("/system-environment?context=Data+Dictionary");
    await expect(refusal(page)).toHaveText(
      "There is no application 'Data Dictionary' you may use.",
    );
    await expect(page.getByTestId("system-environment-page")).toHaveCount(0);
    await expect(selectedApplication(page)).toHaveText(REFERENCE.uiName);
  });
});
