import { expect, type Locator, type Page, test } from "@playwright/test";
import { type Person, personWithRole, post, signedIn } from "./support/api.ts";
import { uploadCountries } from "./support/countries.ts";
import { openPendingOf } from "./support/pending.ts";
import { shot } from "./support/screenshots.ts";
import { admin, REFERENCE } from "./support/users.ts";

/**
 * A whole upload as one change set: a steward uploads two workbooks of new countries (codes no
 * other spec uses, longer than any ISO code); an approver narrows the pending list to the first
 * upload and approves all of it, and the second upload's country stays pending. The test rejects
 * that one at the end, so no change of it is left pending for other specs to count. The approved
 * countries use US dollars and are no EU members, as the explorer spec expects of test countries.
 */

const run = Date.now().toString(36).slice(-5).toUpperCase();
const prefix = `ZZ${run}U`;
let steward: Person;
let approver: Person;

test.beforeAll(async () => {
  const adminApi = await signedIn(admin.username, admin.password);
  const make = (role: string) =>
    personWithRole(adminApi, {
      username: `changeset-${role}-${run.toLowerCase()}`,
      context: REFERENCE.name,
      role,
    });
  steward = await make("steward");
  approver = await make("approver");
  await adminApi.dispose();
});

test.afterAll(async () => {
  await steward?.api.dispose();
  await approver?.api.dispose();
});

/** The iso2 codes of the test's countries still pending, with the upload each comes from. */
async function pendingByUpload(uploadIds: number[]): Promise<Record<number, string[]>> {
  const entries = await Promise.all(
    uploadIds.map(async (id) => {
      const list = await post<{ data: { keyAttrValues: { iso2: string } }[] }>(
        approver.api,
        "/api/entity",
        {
          context: REFERENCE.name,
          entityType: "country",
          includeDeleted: true,
          requirePending: true,
          pendingUploadId: id,
          pageSize: 0,
          rowOrders: [{ attribute: "iso2", asc: true }],
        },
      );
      return [id, list.data.map((r) => r.keyAttrValues.iso2)] as const;
    }),
  );
  return Object.fromEntries(entries);
}

const changeSet = (page: Page): Locator => page.getByLabel("Change set");
const rows = (page: Page): Locator => page.getByTestId("pending-row");
const optionText = (fileName: string, pending: number) =>
  new RegExp(
    `^${fileName.replaceAll(".", "\\.")} — ${steward.username}, \\d{4}/\\d\\d/\\d\\d \\d\\d:\\d\\d:\\d\\d \\(${pending} pending\\)$`,
  );

test("an approver approves one upload as a whole; the other upload stays pending", async ({
  page,
}) => {
  const firstName = `countries-a-${run}.xlsx`;
  const secondName = `countries-b-${run}.xlsx`;
  const first = await uploadCountries(steward, firstName, [`${prefix}1`, `${prefix}2`]);
  const second = await uploadCountries(steward, secondName, [`${prefix}3`]);

  try {
    await openPendingOf(page, approver, "Country");
    await expect(changeSet(page).locator("option:checked")).toHaveText("(all changes)");
    await expect(changeSet(page).locator(`option[value="upload:${first}"]`)).toHaveText(
      optionText(firstName, 2),
    );
    await expect(changeSet(page).locator(`option[value="upload:${second}"]`)).toHaveText(
      optionText(secondName, 1),
    );

    // The change set narrows the list to that upload's changes.
    await changeSet(page).selectOption(`upload:${first}`);
    await expect(page.getByTestId("position-message")).toHaveText("1 - 2 of 2 results");
    await expect(rows(page).locator("td:nth-child(3)")).toHaveText([`${prefix}1`, `${prefix}2`]);
    // The change-type cell may also hold a rule-breach badge (test codes are no ISO codes).
    await expect(rows(page).locator("td:first-child").getByTestId("change-kind")).toHaveText([
      "Added",
      "Added",
    ]);
    await shot(page, "pending-changeset-01-chosen");

    await page.getByTestId("approve-menu").click();
    await expect(page.getByTestId("approve-all")).toContainText(
      "every pending change of this upload (2)",
    );
    await shot(page, "pending-changeset-02-all-menu");
    await page.getByTestId("approve-all").click();
    const modal = page.getByTestId("decision-confirm");
    await expect(modal).toContainText(
      `Please confirm that you want to approve every pending change of Country from the upload '${firstName}':`,
    );
    await expect(modal.getByTestId("decision-count-Add")).toHaveText(/Added\s*2/);
    await expect(modal.getByTestId("decision-total")).toHaveText(/Total\s*2/);
    await shot(page, "pending-changeset-03-confirm");
    await modal.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(modal).toBeHidden();
    await expect(page.getByTestId("toast").filter({ hasText: "Approve response" })).toContainText(
      "2 changes approved",
    );

    // The decided upload leaves the choices, and the list goes back to every change.
    await expect(changeSet(page).locator(`option[value="upload:${first}"]`)).toHaveCount(0);
    await expect(changeSet(page)).toHaveValue("");
    await expect(changeSet(page).locator(`option[value="upload:${second}"]`)).toHaveText(
      optionText(secondName, 1),
    );
    await changeSet(page).selectOption(`upload:${second}`);
    await expect(page.getByTestId("position-message")).toHaveText("1 - 1 of 1 results");
    await expect(rows(page).locator("td:nth-child(3)")).toHaveText([`${prefix}3`]);
    await shot(page, "pending-changeset-04-other-upload");

    expect(await pendingByUpload([first, second])).toEqual({
      [first]: [],
      [second]: [`${prefix}3`],
    });
    const approved = await post<{ data: { keyAttrValues: { iso2: string } }[] }>(
      approver.api,
      "/api/entity",
      {
        context: REFERENCE.name,
        entityType: "country",
        pageSize: 0,
        rowConstraints: [{ attribute: "iso2", operator: "StartsWith", values: [prefix] }],
        rowOrders: [{ attribute: "iso2", asc: true }],
      },
    );
    expect(approved.data.map((r) => r.keyAttrValues.iso2)).toEqual([`${prefix}1`, `${prefix}2`]);
  } finally {
    await post(approver.api, "/api/reject", {
      context: REFERENCE.name,
      entityType: "country",
      uploadId: second,
    });
  }
});
