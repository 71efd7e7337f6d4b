import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yazl from "yazl";
import { minimalWorkbookParts, zipOf } from "../testing/xlsx-files.ts";
import {
  isDateFormatCode,
  isDateSerial,
  type ReadOptions,
  readSheetRows,
  type SheetRow,
  serialToDate,
} from "./xlsx-reader.ts";
import { MAX_ENTRIES } from "./zip-archive.ts";

describe("serialToDate", () => {
  it("agrees with the calendar for every day from 1900 to 9999", () => {
    const epoch = Date.UTC(1899, 11, 30);
    const wrong: number[] = [];
    for (let serial = 1; serial <= 2_958_465; serial++) {
      const expected = new Date(epoch + serial * 86_400_000).toISOString().slice(0, 10);
      if (serialToDate(serial) !== expected) wrong.push(serial);
    }
    expect(wrong).toEqual([]);
  });

  it("knows which serials Excel shows as dates", () => {
    expect([0, 1, 2_958_465, 2_958_465.5, 2_958_466].map(isDateSerial)).toEqual([
      false,
      true,
      true,
      true,
      false,
    ]);
  });

  it("drops the time of day", () => {
    expect(serialToDate(45_292.75)).toBe("2024-01-01");
    expect(serialToDate(60)).toBe("1900-02-28");
  });
});

describe("isDateFormatCode", () => {
  it("sees dates in formats that show a day, month or year outside quotes and brackets", () => {
    expect(isDateFormatCode("dd/mm/yyyy")).toBe(true);
    expect(isDateFormatCode("[$-409]mmm d, yyyy")).toBe(true);
    expect(isDateFormatCode('0.00 "days"')).toBe(false);
    expect(isDateFormatCode("[Red]#,##0")).toBe(false);
  });
});

describe("readSheetRows of hostile workbooks", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "ledgerline-reader-"));
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  const OPTIONS: ReadOptions = {
    sheet: "Countries",
    maxDecompressedBytes: 1024 * 1024 * 1024,
    maxCompressionRatio: 200,
    maxSharedStringsBytes: 64 * 1024 * 1024,
  };
  let files = 0;
  /** Reads every row of the workbook made of these parts; answers them, or the refusal's text. */
  async function read(
    parts: Record<string, string | Buffer>,
    options: Partial<ReadOptions> = {},
  ): Promise<SheetRow[] | string> {
    const file = path.join(dir, `${++files}.xlsx`);
    await fs.writeFile(file, await zipOf(parts));
    return readAll(file, options);
  }
  async function readAll(
    file: string,
    options: Partial<ReadOptions> = {},
  ): Promise<SheetRow[] | string> {
    const rows: SheetRow[] = [];
    try {
      for await (const batch of readSheetRows(file, { ...OPTIONS, ...options }))
        rows.push(...batch);
      return rows;
    } catch (error) {
      return (error as Error).message;
    }
  }
  const sheet = (rows: string) =>
    minimalWorkbookParts(`<worksheet><sheetData>${rows}</sheetData></worksheet>`);
  const text = (ref: string, value: string) =>
    `<c r="${ref}" t="inlineStr"><is><t>${value}</t></is></c>`;

  it("refuses a cell past column XFD as soon as it is read, naming the cell and the limit", async () => {
    const started = performance.now();
    const answer = await read(
      sheet(`<row r="1">${text("A1", "ISO2")}${text("MWLQKWT1", "Name")}</row>`),
    );
    expect(answer).toBe(
      "Sheet 'Countries' has a cell at MWLQKWT1, past column XFD (16,384), the last an Excel sheet has; it was refused",
    );
    // Before the check, the header row became an array 4,000,000,000 long: minutes of one core.
    expect(performance.now() - started).toBeLessThan(1000);
    expect(await read(sheet(`<row r="1">${text(`${"Z".repeat(100_000)}1`, "x")}</row>`))).toMatch(
      /^Sheet 'Countries' has a cell at Z{24}\.\.\., past column XFD/,
    );
    const cells = Array.from({ length: 16_385 }, () => "<c><v>1</v></c>").join("");
    expect(await read(sheet(`<row r="7">${cells}</row>`))).toBe(
      "Sheet 'Countries' has more than 16,384 cells in row 7, past column XFD (16,384), the last an Excel sheet has; it was refused",
    );
  });

  it("reads the last column and the last row an Excel sheet has", async () => {
    const rows = await read(
      sheet(
        `<row r="1">${text("XFD1", "last")}</row><row r="1048576"><c r="A1048576"><v>7</v></c></row>`,
      ),
    );
    expect(rows).toEqual([
      { rowNumber: 1, cells: Object.assign([], { 16383: "last" }) },
      { rowNumber: 1_048_576, cells: [7] },
    ]);
    expect(await read(sheet(`<row r="1">${text("XFE1", "one more")}</row>`))).toMatch(
      /^Sheet 'Countries' has a cell at XFE1, past column XFD/,
    );
  });

  it("refuses a row numbered past 1,048,576, given or counted", async () => {
    expect(await read(sheet(`<row r="1048577"><c r="A1048577"><v>1</v></c></row>`))).toBe(
      "Sheet 'Countries' has a row numbered 1,048,577, past row 1,048,576, the last an Excel sheet has; it was refused",
    );
    expect(await read(sheet(`<row r="1048576"/><row/>`))).toMatch(
      /^Sheet 'Countries' has a row numbered 1,048,577, past row 1,048,576/,
    );
  });

  it("refuses an archive of more parts than a workbook has, before reading one", async () => {
    const zip = new yazl.ZipFile();
    const parts = Object.entries(sheet(""));
    for (const [name, content] of parts) zip.addBuffer(Buffer.from(content), name);
    // Stored, not deflated: ten thousand deflate streams take the test half a minute.
    for (let i = parts.length; i <= MAX_ENTRIES; i++)
      zip.addBuffer(Buffer.alloc(0), `xl/media/${i}`, { compress: false });
    zip.end();
    const file = path.join(dir, "many-parts.xlsx");
    await pipeline(zip.outputStream, createWriteStream(file));
    expect(await readAll(file)).toBe(
      "The workbook holds 10,001 parts, more than the 10,000 a workbook may have; it was refused",
    );
  });

  it("refuses XML that is not well-formed, naming the part", async () => {
    expect(await read(sheet(`<row r="1"><c r="A1"><v>1</c></row>`))).toMatch(
      /^The workbook part 'xl\/worksheets\/sheet1\.xml' is not well-formed XML \(.+\)$/,
    );
  });

  it("refuses shared strings past their budget, naming it", async () => {
    const strings = `<sst>${"<si><t>x</t></si>".repeat(200_000)}</sst>`;
    expect(
      await read(
        { ...sheet(""), "xl/sharedStrings.xml": strings },
        // Well past the zip-bomb guard's ratio, which would refuse it first.
        { maxSharedStringsBytes: 2 * 1024 * 1024, maxCompressionRatio: 10_000 },
      ),
    ).toMatch(
      /^The workbook's shared strings take more than 2 MB once read \([\d,]+ strings so far\), the most the reader may hold; it was refused$/,
    );
  });
});
