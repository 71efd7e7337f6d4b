import http from "node:http";
import type { AddressInfo } from "node:net";
import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { type Person, personWithRole, post, signedIn } from "./support/api.ts";
import { chooseContext, signIn } from "./support/app.ts";
import { shot } from "./support/screenshots.ts";
import { admin, DICTIONARY, plain, REFERENCE } from "./support/users.ts";

/**
 * Webhooks: an administrator subscribes a real receiver (a node:http server on 127.0.0.1 checking
 * every signature with the `standardwebhooks` package) to approved changes of currencies, and
 * follows its deliveries on the screen: delivered, refused by the receiver and waiting, sent
 * again, paused and resumed, edited, its secret rotated, removed. The server of the e2e run allows
 * private addresses (WEBHOOK_ALLOW_PRIVATE in global-setup.ts) and sends every 200 ms.
 */

const run = Date.now().toString(36).slice(-5);

const EXPLANATION =
  "Webhooks tell other systems what happens in Reference Data: each event is POSTed to the address, signed with the subscription's secret (Standard Webhooks). Failed deliveries are retried with backoff; a webhook that keeps failing is paused.";
const COPY_NOW = "Copy the signing secret now: it will not be shown again.";
const rotateQuestion = (url: string) =>
  `Make a new secret for ${url}? The current one keeps signing for a while, so receivers can switch.`;
const removeQuestion = (url: string) =>
  `Remove the webhook to ${url}? Nothing more is delivered to it.`;
const TIME = /^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2}$/;

interface ChangesApproved {
  type: string;
  data: { approvedBy: string[]; entityTypes: { entityType: string; create: number }[] };
}

/** One request as the receiver got it, and what it answered. */
interface Received {
  webhookId: string;
  body: ChangesApproved;
  /** null: it came before the secret was known (another spec's change). */
  verified: boolean | null;
  answer: number;
}

/**
 * A receiver as a downstream system would run one: it checks the signature with the secret the
 * screen showed, and answers 204 (or 500 while `failing`).
 */
interface Receiver {
  url: string;
  secret: string | null;
  failing: boolean;
  received: Received[];
  close: () => Promise<void>;
}

async function startReceiver(path: string): Promise<Receiver> {
  const receiver: Receiver = {
    url: "",
    secret: null,
    failing: false,
    received: [],
    close: async () => {},
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let verified: boolean | null = null;
      if (receiver.secret) {
        try {
          new Webhook(receiver.secret).verify(body, request.headers as Record<string, string>);
          verified = true;
        } catch {
          verified = false;
        }
      }
      const answer = verified === false ? 401 : receiver.failing ? 500 : 204;
      receiver.received.push({
        webhookId: String(request.headers["webhook-id"]),
        body: JSON.parse(body) as ChangesApproved,
        verified,
        answer,
      });
      response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}${path}`;
  receiver.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

let adminApi: APIRequestContext;
let steward: Person;
let receiver: Receiver;

test.beforeAll(async () => {
  adminApi = await signedIn(admin.username, admin.password);
  steward = await personWithRole(adminApi, {
    username: `hook-${run}`,
    context: REFERENCE.name,
    role: "steward",
  });
  receiver = await startReceiver(`/hook/${run}`);
});

test.afterAll(async () => {
  await receiver?.close();
  await steward?.api.dispose();
  await adminApi?.dispose();
});

/** A currency saved by the steward: applied at once (currencies saved on the web need no approval). */
async function saveCurrency(letter: string): Promise<void> {
  const answer = await post<{ pending: boolean }>(steward.api, "/api/save", {
    context: REFERENCE.name,
    entityType: "currency",
    action: "create",
    record: { code: `W${run.toUpperCase()}${letter}`, name: `Webhook test ${letter}` },
  });
  expect(answer.pending).toBe(false);
}

/** The requests for the steward's changes (other specs' changes reach the receiver too). */
const ours = () =>
  receiver.received.filter(
    (r) => r.body.type === "changes.approved" && r.body.data.approvedBy.includes(steward.username),
  );

/** Waits for the receiver to get the steward's `count`th change, and answers its request. */
async function nthDelivery(count: number): Promise<Received> {
  await expect.poll(() => new Set(ours().map((r) => r.webhookId)).size).toBe(count);
  const ids = [...new Set(ours().map((r) => r.webhookId))];
  const request = ours().find((r) => r.webhookId === ids[count - 1]);
  if (!request) throw new Error(`no delivery ${count}`);
  return request;
}

async function webhooksCount(): Promise<number> {
  const list = await post<{ subscriptions: unknown[] }>(adminApi, "/api/webhooks/list", {
    context: REFERENCE.name,
  });
  return list.subscriptions.length;
}

async function openWebhooks(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Administration" }).click();
  await page.getByRole("link", { name: "Webhooks", exact: true }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Webhooks");
}

function webhookRow(page: Page, url: string): Locator {
  return page
    .getByTestId("webhooks-table")
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: url, exact: true }) });
}

function deliveryRow(page: Page, webhookId: string): Locator {
  return page
    .getByTestId("deliveries-table")
    .getByRole("row")
    .filter({ has: page.getByRole("cell", { name: webhookId, exact: true }) });
}

/** Clicks 'Refresh' until the delivery's status is the one expected (the sender works apart). */
async function refreshUntil(page: Page, webhookId: string, status: string): Promise<void> {
  const log = page.getByTestId("delivery-log");
  await expect(async () => {
    await log.getByRole("button", { name: "Refresh" }).click();
    await expect(deliveryRow(page, webhookId).getByRole("cell").nth(3)).toHaveText(status, {
      timeout: 1_000,
    });
  }).toPass();
}

test.describe("webhooks", () => {
  test("a webhook to a real receiver: created, delivered, refused, sent again, paused, edited, rotated, removed", async ({
    page,
    context,
  }) => {
    test.setTimeout(120_000);
    const none = (await webhooksCount()) === 0;
    await signIn(page, admin);
    await chooseContext(page, REFERENCE.uiName);
    await openWebhooks(page);
    await expect(page.getByTestId("webhooks-explanation")).toHaveText(EXPLANATION);
    if (none) await expect(page.getByText("No webhooks yet.", { exact: true })).toBeVisible();

    // Add: the receiver, currencies only, approved changes (chosen at first).
    await page.getByRole("button", { name: "Add webhook" }).click();
    const form = page.getByRole("dialog", { name: "Add webhook" });
    await expect(form.getByText("None chosen: every type")).toBeVisible();
    await expect(form.getByRole("group", { name: "Events" }).getByRole("checkbox")).toHaveCount(4);
    await expect(form.getByLabel("Changes approved")).toBeChecked();
    await expect(form.getByLabel("Upload decided")).not.toBeChecked();
    await form.getByLabel("Address").fill(receiver.url);
    await form.getByRole("group", { name: "Types" }).getByLabel("Currency").check();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(form).toHaveCount(0);

    // The secret, once.
    const secretAlert = page.getByTestId("webhook-secret");
    await expect(secretAlert).toContainText(COPY_NOW);
    await expect(secretAlert.getByRole("heading")).toHaveText(`Webhook to ${receiver.url} created`);
    const secretBox = secretAlert.getByRole("textbox", { name: "Signing secret" });
    await expect(secretBox).toHaveAttribute("readonly", "");
    await expect(secretBox).toHaveClass(/font-monospace/);
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^whsec_/);
    receiver.secret = secret;
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    await secretAlert.getByRole("button", { name: "Copy" }).click();
    await expect(secretAlert.getByRole("status")).toHaveText("Copied to the clipboard.");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

    // The table.
    const table = page.getByTestId("webhooks-table");
    await expect(table.getByRole("columnheader")).toHaveText([
      "Address",
      "Types",
      "Events",
      "Status",
      "Waiting",
      "Failed",
      "Last delivered",
      "Actions",
    ]);
    const row = webhookRow(page, receiver.url);
    const cells = row.getByRole("cell");
    await expect(cells.nth(1)).toHaveText("Currency");
    await expect(cells.nth(2)).toHaveText("Changes approved");
    await expect(cells.nth(3)).toHaveText("Active");
    await expect(cells.nth(4)).toHaveText("0");
    await expect(cells.nth(5)).toHaveText("0");
    await expect(cells.nth(6)).toHaveText("Never");
    for (const name of ["Deliveries", "Edit", "Rotate secret", "Pause", "Remove"]) {
      await expect(row.getByRole("button", { name, exact: true })).toHaveAccessibleDescription(
        receiver.url,
      );
    }
    await shot(page, "webhooks-created");
    await secretAlert.getByRole("button", { name: "Done" }).click();
    await expect(secretAlert).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);

    // A change, delivered and verified.
    await saveCurrency("A");
    const first = await nthDelivery(1);
    expect(first.verified).toBe(true);
    expect(first.answer).toBe(204);
    expect(first.body.data.entityTypes).toEqual([
      { entityType: "currency", create: 1, update: 0, discontinue: 0 },
    ]);

    await row.getByRole("button", { name: "Deliveries" }).click();
    const log = page.getByTestId("delivery-log");
    await expect(log.getByRole("heading")).toHaveText(`Deliveries to ${receiver.url}`);
    await expect(log.getByRole("heading")).toBeFocused();
    await expect(log.getByRole("columnheader")).toHaveText([
      "Delivery",
      "Event",
      "Webhook id",
      "Status",
      "Answer",
      "Tries",
      "Reason",
      "Last try",
      "Next try",
      "Actions",
    ]);
    await refreshUntil(page, first.webhookId, "Delivered");
    const delivered = deliveryRow(page, first.webhookId).getByRole("cell");
    await expect(delivered.nth(0)).toHaveText(/^\d+$/);
    await expect(delivered.nth(1)).toHaveText("Changes approved");
    await expect(delivered.nth(2)).toHaveClass(/font-monospace/);
    await expect(delivered.nth(4)).toHaveText("204");
    await expect(delivered.nth(5)).toHaveText("1");
    await expect(delivered.nth(6)).toHaveText("");
    await expect(delivered.nth(7)).toHaveText(TIME);
    await expect(delivered.nth(8)).toHaveText("—");
    await expect(cells.nth(6)).toHaveText(TIME);

    // The receiver fails: the delivery waits for its next try.
    receiver.failing = true;
    await saveCurrency("B");
    const second = await nthDelivery(2);
    expect(second.verified).toBe(true);
    expect(second.answer).toBe(500);
    await refreshUntil(page, second.webhookId, "Waiting");
    const waiting = deliveryRow(page, second.webhookId).getByRole("cell");
    await expect(waiting.nth(4)).toHaveText("500");
    await expect(waiting.nth(5)).toHaveText("1");
    await expect(waiting.nth(6)).toHaveText("The receiver answered 500");
    await expect(waiting.nth(8)).toHaveText(TIME);
    await expect(cells.nth(4)).not.toHaveText("0");
    await log.scrollIntoViewIfNeeded();
    await shot(page, "webhooks-deliveries", true);

    // Back up: 'Send again' delivers it at once, with the same webhook-id.
    receiver.failing = false;
    await deliveryRow(page, second.webhookId).getByRole("button", { name: "Send again" }).click();
    await expect(page.getByTestId("toast").last()).toContainText(
      /Delivery \d+ queued to be sent again/,
    );
    await expect
      .poll(() =>
        ours()
          .filter((r) => r.webhookId === second.webhookId)
          .map((r) => r.answer),
      )
      .toEqual([500, 204]);
    await refreshUntil(page, second.webhookId, "Delivered");
    await expect(waiting.nth(4)).toHaveText("204");
    await expect(waiting.nth(8)).toHaveText("—");

    // Pause and resume.
    await row.getByRole("button", { name: "Pause" }).click();
    await expect(cells.nth(3).locator(".badge")).toHaveText("Paused");
    await expect(cells.nth(3).locator(".text-body-secondary")).toHaveText("Paused by admin");
    await expect(page.getByTestId("toast").last()).toContainText(
      `Webhook to ${receiver.url} paused`,
    );
    await shot(page, "webhooks-paused");
    await row.getByRole("button", { name: "Resume" }).click();
    await expect(cells.nth(3)).toHaveText("Active");
    await expect(page.getByTestId("toast").last()).toContainText(
      `Webhook to ${receiver.url} resumed`,
    );

    // Edit: every type, and uploads decided too.
    await row.getByRole("button", { name: "Edit" }).click();
    const edit = page.getByRole("dialog", { name: "Edit webhook" });
    await expect(edit.getByLabel("Address")).toHaveValue(receiver.url);
    await expect(edit.getByRole("group", { name: "Types" }).getByLabel("Currency")).toBeChecked();
    await edit.getByRole("group", { name: "Types" }).getByLabel("Currency").uncheck();
    await edit.getByLabel("Upload decided").check();
    await edit.getByRole("button", { name: "Save" }).click();
    await expect(edit).toHaveCount(0);
    await expect(cells.nth(1)).toHaveText("All types");
    await expect(page.getByTestId("toast").last()).toContainText(
      `Webhook to ${receiver.url} saved`,
    );
    await expect(cells.nth(2)).toHaveText("Changes approved, Upload decided");

    // Rotate: a new secret, shown once; the receiver switches to it.
    await row.getByRole("button", { name: "Rotate secret" }).click();
    const rotate = page.getByRole("dialog", { name: "Rotate secret" });
    await expect(rotate).toContainText(rotateQuestion(receiver.url));
    await rotate.getByRole("button", { name: "Rotate secret" }).click();
    await expect(rotate).toHaveCount(0);
    await expect(secretAlert).toContainText(COPY_NOW);
    await expect(secretAlert.getByRole("heading")).toContainText(
      "New secret made; the previous one also signs until",
    );
    const rotated = await secretAlert.getByRole("textbox", { name: "Signing secret" }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    receiver.secret = rotated;
    await saveCurrency("C");
    const third = await nthDelivery(3);
    expect(third.verified).toBe(true);
    expect(third.answer).toBe(204);

    // Remove, after a confirmation.
    await row.getByRole("button", { name: "Remove" }).click();
    const remove = page.getByRole("dialog", { name: "Remove webhook" });
    await expect(remove).toContainText(removeQuestion(receiver.url));
    await remove.getByRole("button", { name: "Remove" }).click();
    await expect(remove).toHaveCount(0);
    await expect(row).toHaveCount(0);
    await expect(log).toHaveCount(0);
    await expect(page.getByTestId("toast").last()).toContainText(
      `Webhook to ${receiver.url} removed`,
    );
    if (none) await expect(page.getByText("No webhooks yet.", { exact: true })).toBeVisible();
  });

  test("the form asks for an address and an event, and shows the server's refusal", async ({
    page,
  }) => {
    const before = await webhooksCount();
    await signIn(page, admin);
    await chooseContext(page, REFERENCE.uiName);
    await openWebhooks(page);
    await page.getByRole("button", { name: "Add webhook" }).click();
    const form = page.getByRole("dialog", { name: "Add webhook" });
    const address = form.getByLabel("Address");
    await expect(address).toBeFocused();

    // Nothing sent while the form's own checks fail.
    await form.getByLabel("Changes approved").uncheck();
    await form.getByRole("button", { name: "Save" }).click();
    await expect(address).toHaveClass(/is-invalid/);
    await expect(address).toHaveAccessibleDescription("required field");
    await expect(form.getByText("choose at least one kind of event")).toBeVisible();
    await expect(form.getByRole("group", { name: "Events" })).toHaveAccessibleDescription(
      "choose at least one kind of event",
    );

    await address.fill("ftp://example.com/x");
    await form.getByLabel("Dictionary published").check();
    await expect(form.getByText("choose at least one kind of event")).toHaveCount(0);
    await form.getByRole("button", { name: "Save" }).click();
    const error = form.getByTestId("webhook-form-error");
    await expect(error).toHaveText("A webhook's address starts with https:// (or http://)");
    await expect(error).toHaveClass(/alert-danger/);
    await shot(page, "webhooks-refused");
    await form.getByRole("button", { name: "Cancel" }).click();
    await expect(form).toHaveCount(0);
    await expect(page.getByTestId("webhook-secret")).toHaveCount(0);
    expect(await webhooksCount()).toBe(before);
  });

  test("a link naming the application opens its webhooks", async ({ page }) => {
    await signIn(page, admin);
    await chooseContext(page, DICTIONARY.uiName);
    await page.goto(`/webhooks?context=${REFERENCE.name}`);
    await expect(page).toHaveURL(/\/webhooks$/);
    await expect(page.getByTestId("webhooks-explanation")).toHaveText(EXPLANATION);
  });

  test("a user who is not an administrator has no Webhooks entry and is sent home", async ({
    page,
  }) => {
    await signIn(page, plain);
    await chooseContext(page, REFERENCE.uiName);
    await expect(page.getByRole("button", { name: "Administration" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Webhooks" })).toHaveCount(0);
    await page.goto("/webhooks");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("webhooks-page")).toHaveCount(0);

    // The server refuses too.
    const api = await signedIn(plain.username, plain.password);
    const refused = await api.post("/api/webhooks/list", { data: { context: REFERENCE.name } });
    expect(refused.status()).toBe(403);
    await api.dispose();
  });
});
