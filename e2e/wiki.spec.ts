import path from "node:path";
import { PublishServerMessage } from "@ledgerline/contract";
import { expect, type Page, test, type WebSocketRoute } from "@playwright/test";
import { chooseContext, mainNav, signIn } from "./support/app.ts";
import { admin, DICTIONARY, REFERENCE } from "./support/users.ts";

// Review screenshots, taken only when E2E_SCREENSHOTS names a folder.
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

const publishButton = (page: Page) => page.getByRole("button", { name: "Publish", exact: true });

/** Notes in the page whether the button was ever disabled with the busy spinner shown. */
async function watchForBusy(page: Page): Promise<() => Promise<boolean>> {
  await page.evaluate(() => {
    const w = window as unknown as { sawBusy: boolean };
    w.sawBusy = false;
    new MutationObserver(() => {
      const button = document.querySelector('[data-testid="publish-button"]');
      const spinner = document.querySelector('[data-testid="publish-busy"]');
      if (button?.hasAttribute("disabled") && spinner) w.sawBusy = true;
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
  return () => page.evaluate(() => (window as unknown as { sawBusy: boolean }).sawBusy);
}

test.describe("publish the data dictionary to the wiki", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
    await chooseContext(page, DICTIONARY.uiName);
  });

  test("publishes to the git wiki, and a second publish writes nothing", async ({ page }) => {
    await mainNav(page).getByRole("link", { name: "Data wiki manager" }).click();
    await expect(page).toHaveURL(/\/wikimanager\?context=Data\+Dictionary$/);
    await expect(
      page.getByRole("heading", { name: "Publish Data Dictionary to Wiki" }),
    ).toBeVisible();
    await expect(publishButton(page)).toBeEnabled();
    await expect(page.getByTestId("publish-result")).toHaveCount(0);
    await shot(page, "wiki-ready");

    const sawBusy = await watchForBusy(page);
    await publishButton(page).click();
    const result = page.getByTestId("publish-result");
    await expect(result).toHaveText(/^Published to git repository/, { timeout: 30_000 });
    await expect(result).toHaveClass(/alert-success/);
    await expect(publishButton(page)).toBeEnabled();
    await expect(page.getByText("Publish in progress")).toHaveCount(0);
    expect(await sawBusy()).toBe(true);
    // The run's last progress message: every page processed.
    await expect(page.getByTestId("publish-progress-count")).toHaveText(/^(\d+) \/ \1 pages$/);
    // The git target has no web address, so there is no index link.
    await expect(page.getByTestId("publish-index-link")).toHaveCount(0);
    await shot(page, "wiki-published");

    await publishButton(page).click();
    await expect(result).toHaveText(/^Published to git repository.*: 0 pages written/, {
      timeout: 30_000,
    });
    await expect(publishButton(page)).toBeEnabled();
  });

  test("changing the context away from 'Data Dictionary' leaves to /", async ({ page }) => {
    await page.goto("/wikimanager");
    await expect(publishButton(page)).toBeEnabled();
    await chooseContext(page, REFERENCE.uiName);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("wiki-page")).toHaveCount(0);
  });

  test("is left for / when 'Reference Data' is selected", async ({ page }) => {
    await chooseContext(page, REFERENCE.uiName);
    await page.goto("/wikimanager");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("wiki-page")).toHaveCount(0);
  });
});

test.describe("the publish screen against a scripted socket", () => {
  test("shows the spinner, the progress, both alerts and the index link; leaves on close", async ({
    page,
  }) => {
    let socket: WebSocketRoute | undefined;
    // The scripted server speaks the contract's messages only.
    const send = (message: PublishServerMessage) =>
      socket?.send(JSON.stringify(PublishServerMessage.parse(message)));
    const received: string[] = [];
    await page.routeWebSocket(/\/ws\/publish$/, (ws) => {
      socket = ws;
      ws.onMessage((message) => {
        received.push(String(message));
        if (message === "status") send({ type: "statusResponse", busy: false });
      });
    });

    await signIn(page, admin);
    await chooseContext(page, DICTIONARY.uiName);
    await page.goto("/wikimanager");
    await expect(publishButton(page)).toBeEnabled();
    expect(page.url()).toMatch(/^http:/);
    expect(received).toEqual(["status"]);

    await publishButton(page).click();
    await expect.poll(() => received).toEqual(["status", "publish"]);
    send({ type: "statusResponse", busy: true });
    send({ type: "progress", done: 50, total: 120 });
    await expect(page.getByRole("status", { name: "Publish in progress" })).toBeVisible();
    await expect(publishButton(page)).toBeDisabled();
    await expect(page.getByTestId("publish-progress-count")).toHaveText("50 / 120 pages");
    await expect(page.getByRole("progressbar", { name: "Publish progress" })).toHaveAttribute(
      "aria-valuenow",
      "42",
    );
    await shot(page, "wiki-in-progress");

    send({
      type: "publishResponse",
      message: "Publish failed: the wiki is unreachable",
      error: true,
    });
    send({ type: "statusResponse", busy: false });
    const result = page.getByTestId("publish-result");
    await expect(result).toHaveText("Publish failed: the wiki is unreachable");
    await expect(result).toHaveClass(/alert-danger/);
    await expect(page.getByTestId("publish-progress")).toHaveCount(0);
    await expect(publishButton(page)).toBeEnabled();
    await shot(page, "wiki-failed");
    await page.setViewportSize({ width: 420, height: 800 });
    await shot(page, "wiki-narrow");
    await page.setViewportSize({ width: 1280, height: 800 });

    await publishButton(page).click();
    send({ type: "statusResponse", busy: true });
    send({ type: "progress", done: 120, total: 120 });
    send({
      type: "publishResponse",
      message: "Published to MediaWiki: 3 pages written, 117 unchanged, 0 removed",
      error: false,
      url: "https://wiki.example.com/index.php/Data_Dictionary",
    });
    send({ type: "statusResponse", busy: false });
    await expect(result).toHaveClass(/alert-success/);
    await expect(page.getByTestId("publish-index-link")).toHaveAttribute(
      "href",
      "https://wiki.example.com/index.php/Data_Dictionary",
    );
    await expect(publishButton(page)).toBeEnabled();
    await shot(page, "wiki-published-link");

    await socket?.close();
    await expect(page).toHaveURL(/\/$/);
  });

  test("keeps the button disabled until the server has told the busy state", async ({ page }) => {
    await page.routeWebSocket(/\/ws\/publish$/, () => {
      // Never answers 'status'.
    });
    await signIn(page, admin);
    await chooseContext(page, DICTIONARY.uiName);
    await page.goto("/wikimanager");
    await expect(page.getByTestId("wiki-page")).toBeVisible();
    await expect(publishButton(page)).toBeDisabled();
    await expect(page.getByText("Asking the server whether a publish is running")).toBeVisible();
  });
});
