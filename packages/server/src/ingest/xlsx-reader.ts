import path from "node:path/posix";
import { SaxesParser, type SaxesTagPlain } from "saxes";
import { SharedStrings } from "./shared-strings.ts";
import { FileFormatError, ZipArchive, type ZipLimits } from "./zip-archive.ts";

/** A cell as read: text, number, boolean, a date (`YYYY-MM-DD`), or empty. */
export type CellValue = string | number | boolean | { date: string } | null;

export interface SheetRow {
  /** 1-based, as Excel shows it. */
  rowNumber: number;
  /** Cells by 0-based column index; missing cells are absent. */
  cells: CellValue[];
}

/** The last column (XFD) and row an Excel sheet has. */
export const MAX_COLUMNS = 16_384;
export const MAX_ROWS = 1_048_576;

/**
 * A streaming parser that refuses DOCTYPE declarations (no entity expansion, no external entities)
 * and XML that is not well-formed, naming the part.
 */
function xmlParser(part: string): SaxesParser {
  const parser = new SaxesParser();
  parser.on("doctype", () => {
    throw new FileFormatError(`The workbook part '${part}' declares a DOCTYPE, which is refused`);
  });
  parser.on("error", (error) => {
    throw new FileFormatError(
      `The workbook part '${part}' is not well-formed XML (${error.message})`,
    );
  });
  return parser;
}

async function parseWhole(
  archive: ZipArchive,
  part: string,
  onTag: (tag: SaxesTagPlain) => void,
): Promise<void> {
  const parser = xmlParser(part);
  parser.on("opentag", onTag);
  parser.write(await archive.text(part)).close();
}

// Built-in number formats that show dates (ECMA-376 18.8.30).
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
]);

/** Whether a custom number format shows a date: a d, m or y outside quotes, brackets and escapes. */
export function isDateFormatCode(code: string): boolean {
  const bare = code.replace(/"[^"]*"|\[[^\]]*\]|\\./g, "");
  return /[dmy]/i.test(bare) && !/^[#0.,%\s]*$/.test(bare);
}

async function readDateStyles(archive: ZipArchive): Promise<boolean[]> {
  if (!archive.has("xl/styles.xml")) return [];
  const custom = new Map<number, string>();
  const xfs: number[] = [];
  let inCellXfs = false;
  const parser = xmlParser("xl/styles.xml");
  parser.on("opentag", (tag) => {
    if (tag.name === "numFmt")
      custom.set(Number(tag.attributes.numFmtId), String(tag.attributes.formatCode ?? ""));
    if (tag.name === "cellXfs") inCellXfs = true;
    if (tag.name === "xf" && inCellXfs) xfs.push(Number(tag.attributes.numFmtId ?? 0));
  });
  parser.on("closetag", (tag) => {
    if (tag.name === "cellXfs") inCellXfs = false;
  });
  parser.write(await archive.text("xl/styles.xml")).close();
  return xfs.map(
    (id) =>
      BUILTIN_DATE_FORMATS.has(id) ||
      (custom.has(id) && isDateFormatCode(custom.get(id) as string)),
  );
}

async function readSharedStrings(archive: ZipArchive, maxBytes: number): Promise<SharedStrings> {
  const strings = new SharedStrings(maxBytes);
  if (!archive.has("xl/sharedStrings.xml")) return strings;
  let current = "";
  let inText = false;
  let inPhonetic = false;
  const parser = xmlParser("xl/sharedStrings.xml");
  parser.on("opentag", (tag) => {
    if (tag.name === "si") current = "";
    else if (tag.name === "rPh") inPhonetic = true;
    else if (tag.name === "t" && !inPhonetic) inText = true;
  });
  parser.on("text", (text) => {
    if (inText) current += text;
  });
  parser.on("closetag", (tag) => {
    if (tag.name === "t") inText = false;
    else if (tag.name === "rPh") inPhonetic = false;
    else if (tag.name === "si") strings.add(current);
  });
  const stream = (await archive.stream("xl/sharedStrings.xml")).setEncoding("utf8");
  for await (const chunk of stream) parser.write(chunk as string);
  parser.close();
  return strings;
}

/** The part path of the named sheet, or a FileFormatError listing the sheets there are. */
async function sheetPart(archive: ZipArchive, sheetName: string): Promise<string> {
  const sheets: { name: string; id: string }[] = [];
  await parseWhole(archive, "xl/workbook.xml", (tag) => {
    if (tag.name === "sheet")
      sheets.push({ name: String(tag.attributes.name), id: String(tag.attributes["r:id"]) });
  });
  const sheet = sheets.find((s) => s.name.trim().toLowerCase() === sheetName.trim().toLowerCase());
  if (!sheet) {
    throw new FileFormatError(
      `The workbook has no sheet '${sheetName}' (it has: ${sheets.map((s) => `'${s.name}'`).join(", ") || "none"})`,
    );
  }
  let target: string | undefined;
  await parseWhole(archive, "xl/_rels/workbook.xml.rels", (tag) => {
    if (tag.name === "Relationship" && tag.attributes.Id === sheet.id)
      target = String(tag.attributes.Target);
  });
  if (!target) throw new FileFormatError(`The sheet '${sheet.name}' has no data part`);
  return target.startsWith("/") ? target.slice(1) : path.normalize(path.join("xl", target));
}

/** The 0-based column of a cell reference ("B7": 1); past MAX_COLUMNS, any number beyond it. */
function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length && n <= MAX_COLUMNS; i++) {
    const code = ref.charCodeAt(i);
    if (code < 65 || code > 90) break;
    n = n * 26 + (code - 64);
  }
  return n - 1;
}

// Refused as soon as read: a cell at column 4,000,000,000 made the header row an array that long,
// which the layout's matching then walked for minutes.
function pastLastColumn(sheet: string, rowNumber: number, ref: string | undefined) {
  const where = ref
    ? `a cell at ${ref.length > 24 ? `${ref.slice(0, 24)}...` : ref}`
    : `more than ${MAX_COLUMNS.toLocaleString("en-US")} cells in row ${rowNumber.toLocaleString("en-US")}`;
  return new FileFormatError(
    `Sheet '${sheet}' has ${where}, past column XFD (${MAX_COLUMNS.toLocaleString("en-US")}), the last an Excel sheet has; it was refused`,
  );
}

function pastLastRow(sheet: string, rowNumber: number) {
  return new FileFormatError(
    `Sheet '${sheet}' has a row numbered ${rowNumber.toLocaleString("en-US")}, past row ${MAX_ROWS.toLocaleString("en-US")}, the last an Excel sheet has; it was refused`,
  );
}

/** The serial day numbers Excel shows as dates: 1900-01-01 to 9999-12-31. */
export const isDateSerial = (n: number) => n >= 1 && n < 2_958_466;

/** Days from 0000-03-01 to 1899-12-30, Excel's day 0 (its 1900 leap-year bug is left in). */
const EXCEL_EPOCH_DAYS = 693_899;
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * The calendar date of an Excel serial day number (the time of day is dropped). Integer
 * arithmetic on the proleptic Gregorian calendar's 400-year cycles rather than a Date per cell:
 * a large file has one date cell per row or more.
 */
export function serialToDate(serial: number): string {
  const days = Math.floor(serial) + EXCEL_EPOCH_DAYS;
  const era = Math.floor(days / 146_097);
  const dayOfEra = days - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1_460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = era * 400 + yearOfEra + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${pad2(month)}-${pad2(day)}`;
}

export interface ReadOptions extends ZipLimits {
  sheet: string;
  /** Most bytes the workbook's shared strings may take once read (they are outside the heap). */
  maxSharedStringsBytes: number;
}

/** Checks that the file is a plain workbook (not a macro-enabled one) before anything is parsed. */
async function checkWorkbook(archive: ZipArchive): Promise<void> {
  if (!archive.has("[Content_Types].xml") || !archive.has("xl/workbook.xml")) {
    throw new FileFormatError("The file is a zip archive but not an Excel workbook (.xlsx)");
  }
  const types = await archive.text("[Content_Types].xml");
  if (archive.has("xl/vbaProject.bin") || /macroEnabled/i.test(types)) {
    throw new FileFormatError(
      "Macro-enabled workbooks (.xlsm) are refused; save the file as .xlsx",
    );
  }
}

/**
 * Streams the rows of one sheet of an .xlsx file, in batches as they are parsed. Formulas are read
 * as their cached values; dates are recognised by the cell's number format.
 */
export async function* readSheetRows(
  filePath: string,
  options: ReadOptions,
): AsyncGenerator<SheetRow[]> {
  const archive = await ZipArchive.open(filePath, options);
  try {
    await checkWorkbook(archive);
    const part = await sheetPart(archive, options.sheet);
    const dateStyles = await readDateStyles(archive);
    const shared = await readSharedStrings(archive, options.maxSharedStringsBytes);

    let ready: SheetRow[] = [];
    let row: SheetRow | undefined;
    // The cell being read, as plain variables: a large sheet has millions of cells.
    let inCell = false;
    let cellIndex = 0;
    let cellType = "n";
    let cellStyle = 0;
    let cellText = "";
    let collect = false;
    let nextRow = 1;
    const parser = xmlParser(part);
    parser.on("opentag", (tag) => {
      switch (tag.name) {
        case "row": {
          const r = Number(tag.attributes.r);
          row = { rowNumber: Number.isInteger(r) && r > 0 ? r : nextRow, cells: [] };
          if (row.rowNumber > MAX_ROWS) throw pastLastRow(options.sheet, row.rowNumber);
          nextRow = row.rowNumber + 1;
          cellIndex = -1;
          break;
        }
        case "c": {
          const ref = tag.attributes.r;
          cellIndex = ref ? columnIndex(String(ref)) : cellIndex + 1;
          if (cellIndex >= MAX_COLUMNS)
            throw pastLastColumn(options.sheet, row?.rowNumber ?? nextRow, ref && String(ref));
          cellType = tag.attributes.t ? String(tag.attributes.t) : "n";
          cellStyle = tag.attributes.s ? Number(tag.attributes.s) : 0;
          cellText = "";
          inCell = true;
          break;
        }
        case "v":
        case "t":
          collect = inCell;
          break;
      }
    });
    parser.on("text", (text) => {
      if (collect) cellText += text;
    });
    parser.on("closetag", (tag) => {
      if (tag.name === "v" || tag.name === "t") collect = false;
      else if (tag.name === "c" && inCell) {
        inCell = false;
        if (!row) return;
        const value = decodeCell(cellType, cellText, dateStyles[cellStyle] === true, shared);
        if (value !== null) row.cells[cellIndex] = value;
      } else if (tag.name === "row" && row) {
        ready.push(row);
        row = undefined;
      }
    });
    // Decoding as a stream keeps multi-byte characters split across chunks intact.
    for await (const chunk of (await archive.stream(part)).setEncoding("utf8")) {
      parser.write(chunk as string);
      if (ready.length > 0) {
        yield ready;
        ready = [];
      }
    }
    parser.close();
    if (ready.length > 0) yield ready;
  } finally {
    archive.close();
  }
}

function decodeCell(type: string, text: string, isDate: boolean, shared: SharedStrings): CellValue {
  switch (type) {
    case "s": {
      const s = shared.get(Number(text));
      return s === undefined || s === "" ? null : s;
    }
    case "inlineStr":
    case "str":
    case "e":
      return text === "" ? null : text;
    case "b":
      return text === "1";
    case "d":
      return text === "" ? null : { date: text.slice(0, 10) };
    default: {
      if (text === "") return null;
      const n = Number(text);
      if (!Number.isFinite(n)) return text;
      // A date-formatted number outside Excel's dates stays a number (and a Date column refuses it).
      return isDate && isDateSerial(n) ? { date: serialToDate(n) } : n;
    }
  }
}
