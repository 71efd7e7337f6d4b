import { expect, test } from "@playwright/test";
import { chooseContext, signIn } from "./support/app.ts";
import { admin, DICTIONARY, REFERENCE } from "./support/users.ts";

const cards = [
  {
    testId: "home-card-upload",
    title: "XLSX upload",
    text: "Ingest data through file upload",
    href: "/upload",
  },
  {
    testId: "home-card-explorer",
    title: "Data explorer",
    text: "Browse, filter, edit or export stored data",
    href: "/explorer",
  },
  {
    testId: "home-card-pending",
    title: "Pending data changes",
    text: "Manage changes flagged as needing approval",
    href: "/pending",
  },
];

test.describe("home page", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, admin);
  });

  test("asks for an application while none is chosen", async ({ page }) => {
    await expect(page.getByText("Please select an application")).toBeVisible();
    for (const card of cards) await expect(page.getByTestId(card.testId)).toHaveCount(0);
  });

  test("shows the three cards once an application is chosen", async ({ page }) => {
    await chooseContext(page, REFERENCE.uiName);
    await expect(page.getByText("Please select an application")).toHaveCount(0);
    for (const card of cards) {
      const element = page.getByTestId(card.testId);
      await expect(element.getByRole("heading", { name: card.title })).toBeVisible();
      await expect(element.getByText(card.text, { exact: true })).toBeVisible();
      await expect(element.getByRole("link", { name: card.title })).toHaveAttribute(
        "href",
        card.href,
      );
    }
  });

  test("shows the same cards in the Data Dictionary", async ({ page }) => {
    await chooseContext(page, DICTIONARY.uiName);
    // Below the cards, the 'Waiting for approval' list has a heading of its own.
    const titles = page.locator("[data-testid^=home-card-]").getByRole("heading", { level: 2 });
    await expect(titles).toHaveText(cards.map((c) => c.title));
  });

  test("pings the server each time it loads", async ({ page }) => {
    // Each ping answered, with when it was sent: the first load's can still be on its way when the
    // page reloads (and is then cut off), so the reload's is told by the moment it was sent.
    const answered: { sentAt: number; status: number; body: unknown }[] = [];
    page.on("requestfinished", async (request) => {
      if (request.method() !== "POST" || new URL(request.url()).pathname !== "/api/ping") return;
      const response = await request.response();
      const body = await response?.json().catch(() => undefined);
      answered.push({ sentAt: request.timing().startTime, status: response?.status() ?? 0, body });
    });
    const reloadedAt = Date.now();
    await page.reload();
    await expect
      .poll(() => answered.filter((a) => a.sentAt >= reloadedAt))
      .toContainEqual(
        expect.objectContaining({ status: 200, body: expect.objectContaining({ status: "ok" }) }),
      );

    const again = page.waitForRequest((r) => new URL(r.url()).pathname === "/api/ping");
    await page.goto("/errornotification/away");
    await page.getByRole("button", { name: "Back to main page" }).click();
    await again;
  });
});
