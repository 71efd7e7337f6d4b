import { expect, type Locator, type Page, test } from "@playwright/test";
import { type Person, personWithRole, post, signedIn } from "./support/api.ts";
import { contextSelect, openUserMenu, signIn } from "./support/app.ts";
import { rejectUpload, uploadCountries } from "./support/countries.ts";
import { pendingLinkOf, waitForMail } from "./support/mail.ts";
import { shot } from "./support/screenshots.ts";
import { admin, REFERENCE, solo } from "./support/users.ts";

/**
 * Notifications (issue 22): the Notifications page, the waiting counts on the Home page and in
 * the navigation bar, links to one application, type and change set, what administrators see,
 * and a link followed from a real e-mail (global-setup.ts runs an SMTP server for the run).
 * Changes come from a steward's uploads of countries no other spec uses (codes longer than any
 * ISO code); each test rejects what it left pending, so other specs' counts stay as they were.
 */

const run = Date.now().toString(36).slice(-5).toUpperCase();
const prefix = `ZZ${run}N`;

const KINDS = [
  {
    kind: "changes_waiting",
    uiName: "Change sets waiting for me",
    uiDescription:
      "An upload or a metadata import has changes that I may approve (one message per change set).",
  },
  {
    kind: "web_digest",
    uiName: "Web changes waiting for me",
    uiDescription:
      "Records created, edited or deleted in the web wait for my approval (at most one digest per type in each interval).",
  },
  {
    kind: "decision",
    uiName: "Decisions on my changes",
    uiDescription: "My changes were approved, rejected or ran into a conflict.",
  },
  {
    kind: "import_failed",
    uiName: "Failed scheduled imports",
    uiDescription: "A scheduled import of a metadata source I own failed.",
  },
] as const;

let steward: Person;
let approver: Person;
let viewer: Person;
let quiet: Person;

test.beforeAll(async () => {
  const adminApi = await signedIn(admin.username, admin.password);
  const make = (name: string, role: string) =>
    personWithRole(adminApi, {
      username: `notify-${name}-${run.toLowerCase()}`,
      context: REFERENCE.name,
      role,
    });
  steward = await make("steward", "steward");
  approver = await make("approver", "approver");
  viewer = await make("viewer", "viewer");
  quiet = await make("quiet", "viewer");
  await adminApi.dispose();
});

test.afterAll(async () => {
  for (const person of [steward, approver, viewer, quiet]) await person?.api.dispose();
});

const emailOf = (person: Person) => `${person.username}@example.com`;

interface Waiting {
  context: string;
  uiName: string;
  waitingForMe: number;
  mineWaiting: number;
}

/** The counts of 'Reference Data' as the server gives them to `person` right now. */
async function waitingOf(person: Person): Promise<Waiting> {
  return referenceIn(await post<Waiting[]>(person.api, "/api/waiting", {}));
}

function referenceIn(list: Waiting[]): Waiting {
  const entry = list.find((w) => w.context === REFERENCE.name);
  expect(entry, `the caller has a role in ${REFERENCE.name}`).toBeDefined();
  return entry as Waiting;
}

/** The Home page's wording, singular for one. */
const forMeText = (n: number) =>
  n === 1 ? "1 change waits for your decision" : `${n} changes wait for your decision`;

/**
 * Waits until `read` shows what the server counts for `person` at the same moment (other specs
 * add and decide changes meanwhile); `reload` asks the page again between tries.
 */
async function expectShownCount(
  page: Page,
  person: Person,
  read: () => Promise<number>,
  options: { reload: boolean },
): Promise<number> {
  let shown = -1;
  await expect
    .poll(async () => {
      const before = (await waitingOf(person)).waitingForMe;
      if (options.reload) await page.reload();
      shown = await read();
      const after = (await waitingOf(person)).waitingForMe;
      return before === after && shown === after;
    })
    .toBe(true);
  return shown;
}

/** The number on the 'Pending changes' badge; 0 while the badge is hidden. */
function badgeCount(page: Page): () => Promise<number> {
  const badge = page.getByTestId("nav-pending-badge");
  return async () => ((await badge.count()) === 0 ? 0 : Number(await badge.textContent()));
}

const waitingRow = (page: Page): Locator =>
  page.getByTestId("waiting-application").filter({ hasText: REFERENCE.uiName });
const changeSet = (page: Page): Locator => page.getByLabel("Change set");
const isoCells = (page: Page): Locator =>
  page.getByTestId("pending-row").locator("td:nth-child(3)");

async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Log out" }).click();
  await expect(page).toHaveURL(/\/login$/);
}

test("the Notifications page lists the four kinds; a switch survives a reload", async ({
  page,
}) => {
  await signIn(page, viewer);
  await (await openUserMenu(page)).getByRole("link", { name: "Notifications" }).click();
  await expect(page).toHaveURL(/\/notifications$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Notifications");
  await expect(page.getByTestId("notifications-email")).toHaveText(emailOf(viewer));
  // The run's server has an SMTP server, and the user an address: no warning.
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByRole("switch")).toHaveCount(KINDS.length);
  for (const { kind, uiName, uiDescription } of KINDS) {
    const item = page.getByTestId(`notify-${kind}`);
    await expect(item.getByText(uiDescription, { exact: true })).toBeVisible();
    await expect(page.getByRole("switch", { name: uiName, exact: true })).toBeChecked();
  }
  await shot(page, "notifications-01-page");

  const decision = page.getByRole("switch", { name: "Decisions on my changes", exact: true });
  const saved = page.waitForResponse((r) => r.url().endsWith("/api/notifications/updatesetting"));
  await decision.uncheck();
  expect((await saved).ok()).toBe(true);
  await expect(page.getByTestId("notify-decision-saved")).toHaveText("Saved");
  await shot(page, "notifications-02-switched-off");

  await page.reload();
  await expect(decision).not.toBeChecked();
  for (const { uiName } of KINDS.filter((k) => k.kind !== "decision")) {
    await expect(page.getByRole("switch", { name: uiName, exact: true })).toBeChecked();
  }
  const stored = await post<{ settings: { kind: string; enabled: boolean }[] }>(
    viewer.api,
    "/api/notifications/settings",
    {},
  );
  expect(stored.settings.filter((s) => !s.enabled)).toEqual([{ kind: "decision", enabled: false }]);

  await decision.check();
  await expect(page.getByTestId("notify-decision-saved")).toBeVisible();
  await page.reload();
  await expect(decision).toBeChecked();
});

test("the Notifications page says when no message can be sent", async ({ page }) => {
  // A server without SMTP and a user without an address, as the server would describe them.
  await page.route("**/api/notifications/settings", (route) =>
    route.fulfill({
      json: {
        email: "",
        emailEnabled: false,
        settings: KINDS.map(({ kind }) => ({ kind, enabled: true })),
      },
    }),
  );
  await signIn(page, viewer);
  await page.goto("/notifications");
  await expect(page.getByTestId("notifications-no-smtp")).toHaveText(
    "E-mail is not configured on this server: no messages are sent. The counts on the Home page still work.",
  );
  await expect(page.getByTestId("notifications-no-email")).toHaveText(
    "Your account has no e-mail address: no messages can reach you. Add one on My account",
  );
  await expect(
    page.getByTestId("notifications-no-email").getByRole("link", { name: "Add one on My account" }),
  ).toHaveAttribute("href", "/account");
  await expect(page.getByTestId("notifications-email")).toHaveCount(0);
  await expect(page.getByRole("switch")).toHaveCount(KINDS.length);
  await shot(page, "notifications-03-no-mail");
});

test("the Home page counts the changes waiting per application and links to them", async ({
  page,
}) => {
  const uploadId = await uploadCountries(steward, `notify-home-${run}.xlsx`, [`${prefix}H1`]);
  try {
    // The steward's own change waits for someone else.
    await signIn(page, steward);
    await expect(waitingRow(page).getByTestId("mine-waiting")).toHaveText(
      "1 of your changes waits for approval",
    );
    await expect(waitingRow(page).getByTestId("mine-waiting")).toHaveAttribute(
      "href",
      "/pending?context=reference",
    );
    await expect(page.getByRole("heading", { name: "Waiting for approval" })).toBeVisible();
    await shot(page, "notifications-04-home-steward");
    await signOut(page);

    // The approver may decide on it.
    await signIn(page, approver);
    const forMe = waitingRow(page).getByTestId("waiting-for-me");
    const shown = await expectShownCount(
      page,
      approver,
      async () => Number((await forMe.textContent())?.match(/^\d+/)?.[0] ?? -1),
      { reload: true },
    );
    expect(shown).toBeGreaterThanOrEqual(1);
    await expect(forMe).toHaveText(forMeText(shown));
    await expect(waitingRow(page).getByTestId("mine-waiting")).toHaveText(
      "0 of your changes wait for approval",
    );
    // The card's badge counts the same changes.
    await expect(page.getByTestId("home-card-pending").getByTestId("pending-badge")).toHaveText(
      new RegExp(`^${shown}`),
    );
    await signOut(page);

    // An administrator of both applications, none chosen: the link chooses it.
    await signIn(page, admin);
    await expect(page.getByText("Please select an application")).toBeVisible();
    const adminForMe = waitingRow(page).getByTestId("waiting-for-me");
    await expect(adminForMe).toHaveText(/^[1-9]\d* changes? waits? for your decision$/);
    await shot(page, "notifications-05-home-admin");
    await adminForMe.click();
    await expect(page).toHaveURL(/\/pending\?context=reference$/);
    await expect(contextSelect(page).locator("option:checked")).toHaveText(REFERENCE.uiName);
    await expect(page.getByTestId("pending-overview")).toBeVisible();
  } finally {
    await rejectUpload(approver, uploadId);
  }
});

test("a link naming application, type and upload opens that change set", async ({ page }) => {
  const fileName = `notify-link-${run}.xlsx`;
  const uploadId = await uploadCountries(steward, fileName, [`${prefix}D1`, `${prefix}D2`]);
  try {
    await signIn(page, admin);
    await expect(page.getByText("Please select an application")).toBeVisible();
    await page.goto(`/pending?context=reference&type=country&changeSet=upload:${uploadId}`);
    await expect(contextSelect(page).locator("option:checked")).toHaveText(REFERENCE.uiName);
    await expect(page.getByTestId("pending-title")).toHaveText("Country");
    await expect(changeSet(page)).toHaveValue(`upload:${uploadId}`);
    await expect(changeSet(page).locator("option:checked")).toContainText(fileName);
    await expect(page.getByTestId("position-message")).toHaveText("1 - 2 of 2 results");
    await expect(isoCells(page)).toHaveText([`${prefix}D1`, `${prefix}D2`]);
    // The address keeps the application with the type and the change set: a link to pass on.
    await expect(page).toHaveURL(
      new RegExp(`/pending\\?context=reference&type=country&changeSet=upload(:|%3A)${uploadId}$`),
    );
    await shot(page, "notifications-06-deep-link");

    // Once decided, the same link shows every change of the type.
    await rejectUpload(approver, uploadId);
    await page.goto(`/pending?context=reference&type=country&changeSet=upload:${uploadId}`);
    await expect(page.getByTestId("pending-title")).toHaveText("Country");
    await expect(changeSet(page)).toHaveValue("");
    await expect(page).toHaveURL(/\/pending\?context=reference&type=country$/);
  } finally {
    await rejectUpload(approver, uploadId);
  }
});

test("the 'Pending changes' item counts the changes waiting for the user and follows decisions", async ({
  page,
}) => {
  // A viewer may decide nothing: no badge.
  await signIn(page, solo);
  await expect(page.getByTestId("nav-pending")).toBeVisible();
  await expect(page.getByTestId("nav-pending-badge")).toHaveCount(0);
  await signOut(page);

  const uploadId = await uploadCountries(steward, `notify-badge-${run}.xlsx`, [`${prefix}C1`]);
  try {
    await signIn(page, approver);
    const before = await expectShownCount(page, approver, badgeCount(page), { reload: true });
    expect(before).toBeGreaterThanOrEqual(1);
    // The count describes the link; its name stays as SPEC.md gives it.
    await expect(
      page.getByRole("link", { name: "Pending changes", exact: true }),
    ).toHaveAccessibleDescription(forMeText(before));
    await shot(page, "notifications-07-nav-badge");

    await page.goto(`/pending?context=reference&type=country&changeSet=upload:${uploadId}`);
    await expect(changeSet(page)).toHaveValue(`upload:${uploadId}`);
    await expect(isoCells(page)).toHaveText([`${prefix}C1`]);
    await page.getByTestId("approve-menu").click();
    await page.getByTestId("approve-all").click();
    const modal = page.getByTestId("decision-confirm");
    // The decision refreshes the badge without a reload: it shows what the counts asked after
    // the decision answered (other specs move the server's count meanwhile, so not a fresh one).
    const refreshed = page
      .waitForResponse((r) => r.url().endsWith("/api/approve"))
      .then(() => page.waitForResponse((r) => r.url().endsWith("/api/waiting")))
      .then(async (r) => referenceIn((await r.json()) as Waiting[]).waitingForMe);
    await modal.getByRole("button", { name: "Approve", exact: true }).click();
    await expect(modal).toBeHidden();
    const after = await refreshed;
    await expect.poll(badgeCount(page)).toBe(after);
  } finally {
    await rejectUpload(approver, uploadId);
  }
});

test("administrators see everyone's notification settings and the undelivered messages", async ({
  page,
}) => {
  await post(quiet.api, "/api/notifications/updatesetting", { kind: "web_digest", enabled: false });
  await signIn(page, admin);
  await page.goto("/usermanagement");
  // The users table stays as SPEC.md describes it.
  await expect(page.getByTestId("users-table").getByRole("columnheader")).toHaveText([
    "Username",
    "Display name",
    "Email",
    "Administrator",
  ]);

  const settings = page.getByTestId("notification-settings");
  const rowOf = (person: Person) =>
    settings.getByRole("row").filter({ has: page.getByRole("cell", { name: person.username }) });
  await expect(settings.getByRole("columnheader")).toHaveText([
    "Username",
    "Email",
    "Notifications",
  ]);
  await expect(rowOf(quiet).getByRole("cell")).toHaveText([
    quiet.username,
    emailOf(quiet),
    "off: Web changes waiting for me",
  ]);
  await expect(rowOf(steward).getByRole("cell").nth(2)).toHaveText("all on");

  await expect(page.getByRole("heading", { name: "Undelivered messages" })).toBeVisible();
  await expect(page.getByTestId("outbox-counts")).toHaveText(
    /^\d+ waiting to be sent, \d+ sent\.$/,
  );
  // The run's SMTP server takes every message: nothing failed.
  await expect(page.getByTestId("no-failed-messages")).toHaveText("No failed messages");
  await page.getByRole("heading", { name: "Undelivered messages" }).scrollIntoViewIfNeeded();
  await shot(page, "notifications-08-users");

  // A message the server gave up on, as it would list it.
  await page.route("**/api/notifications/outbox", (route) =>
    route.fulfill({
      json: {
        queued: 2,
        sent: 5,
        failed: [
          {
            messageId: 41,
            kind: "decision",
            recipient: "ann@example.com",
            subject: "Reference Data: your changes to Country approved",
            attempts: 8,
            lastError: "550 5.1.1 <ann@example.com>: Recipient address rejected",
            createdAt: "2026-03-04T09:08:07.000Z",
          },
        ],
      },
    }),
  );
  await page.reload();
  const failed = page.getByTestId("failed-messages");
  await expect(failed.getByRole("columnheader")).toHaveText([
    "Recipient",
    "Subject",
    "Attempts",
    "Last error",
    "Date",
  ]);
  await expect(failed.getByRole("row").nth(1).getByRole("cell")).toHaveText([
    "ann@example.com",
    "Reference Data: your changes to Country approved",
    "8",
    "550 5.1.1 <ann@example.com>: Recipient address rejected",
    /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d$/,
  ]);
  await expect(page.getByTestId("outbox-counts")).toHaveText("2 waiting to be sent, 5 sent.");
  await expect(page.getByTestId("no-failed-messages")).toHaveCount(0);
  await page.getByRole("heading", { name: "Undelivered messages" }).scrollIntoViewIfNeeded();
  await shot(page, "notifications-09-users-failed");
});

test("a link from a real e-mail opens the upload's change set for the approver", async ({
  page,
}) => {
  const fileName = `notify-mail-${run}.xlsx`;
  const uploadId = await uploadCountries(steward, fileName, [`${prefix}M1`]);
  try {
    const changeSetOf = (link: string) => new URL(link).searchParams.get("changeSet");
    const mail = await waitForMail(emailOf(approver), (m) => {
      try {
        return changeSetOf(pendingLinkOf(m)) === `upload:${uploadId}`;
      } catch {
        return false;
      }
    });
    expect(mail.subject).toContain(fileName);
    const link = pendingLinkOf(mail);
    const url = new URL(link);
    expect(url.origin).toBe(new URL(process.env.E2E_BASE_URL ?? "").origin);
    expect(url.searchParams.get("context")).toBe(REFERENCE.name);
    expect(url.searchParams.get("type")).toBe("country");

    await signIn(page, approver);
    await page.goto(link);
    await expect(page.getByTestId("pending-title")).toHaveText("Country");
    await expect(changeSet(page)).toHaveValue(`upload:${uploadId}`);
    await expect(changeSet(page).locator("option:checked")).toContainText(fileName);
    await expect(isoCells(page)).toHaveText([`${prefix}M1`]);
    await shot(page, "notifications-10-from-mail");
  } finally {
    await rejectUpload(approver, uploadId);
  }
});
