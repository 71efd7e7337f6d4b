import path from "node:path";
import type { Page } from "@playwright/test";

/** A review screenshot, taken only when E2E_SCREENSHOTS names a folder. */
export async function shot(page: Page, name: string, fullPage = false): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS;
  if (!dir) return;
  // Let transitions (modals, toasts, collapses) settle.
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage });
}
