import type { Page, TestInfo } from "@playwright/test";
import ExcelJS from "exceljs";

/** Runs `click`, saves the workbook it downloads in the test's output folder, and reads it back. */
export async function downloadWorkbook(
  page: Page,
  testInfo: TestInfo,
  click: () => Promise<void>,
): Promise<{ name: string; workbook: ExcelJS.Workbook }> {
  const downloading = page.waitForEvent("download");
  await click();
  const download = await downloading;
  const name = download.suggestedFilename();
  const file = testInfo.outputPath(name);
  await download.saveAs(file);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return { name, workbook };
}
