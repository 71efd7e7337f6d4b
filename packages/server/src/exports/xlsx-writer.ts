import { PassThrough, type Readable } from "node:stream";
import type { ScalarValue } from "@ledgerline/contract";
import yazl from "yazl";

export type CellType = "String" | "Number" | "Boolean" | "Date";

export interface XlsxColumn {
  header: string;
  type: CellType;
}

/** The colours of the pending screen: a new value, a changed one (old, new), a removed one. */
export type CellStyle = "new" | "old" | "changed" | "removed";

/** A value with the colour it is shown in. */
export interface StyledValue {
  value: ScalarValue;
  style: CellStyle;
}

export type XlsxCell = ScalarValue | StyledValue;

const CONTENT_TYPES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/></Types>`;
const ROOT_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`;
const WORKBOOK_RELS = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`;
// Fonts: plain, bold, struck through in orange, struck through in red. Fills: none, gray125 (both
// required), green, yellow.
const FONTS = `<fonts count="4"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font><font><strike/><sz val="11"/><color rgb="FFFD7E14"/><name val="Calibri"/></font><font><strike/><sz val="11"/><color rgb="FFDC3545"/><name val="Calibri"/></font></fonts>`;
const FILLS = `<fills count="4"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill><fill><patternFill patternType="solid"><fgColor rgb="FFD1E7DD"/></patternFill></fill><fill><patternFill patternType="solid"><fgColor rgb="FFFFE69C"/></patternFill></fill></fills>`;
const COLOURS: Readonly<Record<CellStyle, { font: number; fill: number }>> = {
  new: { font: 0, fill: 2 },
  old: { font: 2, fill: 0 },
  changed: { font: 0, fill: 3 },
  removed: { font: 3, fill: 0 },
};
const COLOURED = Object.keys(COLOURS) as CellStyle[];
const xf = (numFmt: number, font: number, fill: number) =>
  `<xf numFmtId="${numFmt}" fontId="${font}" fillId="${fill}" borderId="0" xfId="0"${numFmt ? ' applyNumberFormat="1"' : ""}${font ? ' applyFont="1"' : ""}${fill ? ' applyFill="1"' : ""}/>`;
// Cell styles: 0 plain, 1 a date (yyyy-mm-dd), 2 a header (bold), then each colour as text and as a date.
const CELL_XFS = [
  xf(0, 0, 0),
  xf(164, 0, 0),
  xf(0, 1, 0),
  ...COLOURED.flatMap((c) => [
    xf(0, COLOURS[c].font, COLOURS[c].fill),
    xf(164, COLOURS[c].font, COLOURS[c].fill),
  ]),
];
const STYLES = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>${FONTS}${FILLS}<borders count="1"><border/></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="${CELL_XFS.length}">${CELL_XFS.join("")}</cellXfs></styleSheet>`;

/** The cell style index of a colour as text; its date variant is the next one. */
function styleIndex(style: CellStyle): number {
  return 3 + COLOURED.indexOf(style) * 2;
}

function workbook(sheetName: string): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${escapeXml(sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`;
}

// XML 1.0 forbids most control characters; they are dropped rather than corrupting the file.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const INVALID_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

// Most cells need no escaping at all; one test spares them five replacements.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NEEDS_ESCAPE = /[&<>"\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

export function escapeXml(text: string): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  return text
    .replace(INVALID_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/** Column letters: 0 -> A, 25 -> Z, 26 -> AA. */
export function columnName(index: number): string {
  let name = "";
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

const EXCEL_EPOCH_MS = Date.UTC(1899, 11, 30);

/** Excel's serial day number of a YYYY-MM-DD date (by its numbers: parsing the text costs more). */
export function dateSerial(isoDate: string): number {
  const year = Number(isoDate.slice(0, 4));
  const month = Number(isoDate.slice(5, 7));
  const day = Number(isoDate.slice(8, 10));
  return (Date.UTC(year, month - 1, day) - EXCEL_EPOCH_MS) / 86_400_000;
}

// Inline strings are literal text: a value such as "=1+1" or "@cmd" can never become a formula.
function textCell(ref: string, text: string, style = ""): string {
  return `<c r="${ref}" t="inlineStr"${style}><is><t xml:space="preserve">${escapeXml(text)}</t></is></c>`;
}

function cell(ref: string, type: CellType, content: XlsxCell): string {
  if (content === null || typeof content !== "object") return typedCell(ref, type, content, "");
  const plain = styleIndex(content.style);
  if (content.value === null || content.value === "") return `<c r="${ref}" s="${plain}"/>`;
  const date = type === "Date" && isIsoDate(content.value);
  return typedCell(ref, type, content.value, ` s="${date ? plain + 1 : plain}"`);
}

const isIsoDate = (value: ScalarValue) =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** A cell by its column's type; `style` is its ` s="N"` attribute (a date's own when empty). */
function typedCell(ref: string, type: CellType, value: ScalarValue, style: string): string {
  if (value === null || value === "") return "";
  if (type === "Number" && typeof value === "number")
    return `<c r="${ref}"${style}><v>${value}</v></c>`;
  if (type === "Boolean" && typeof value === "boolean")
    return `<c r="${ref}" t="b"${style}><v>${value ? 1 : 0}</v></c>`;
  if (type === "Date" && isIsoDate(value))
    return `<c r="${ref}"${style || ' s="1"'}><v>${dateSerial(value as string)}</v></c>`;
  return textCell(ref, String(value), style);
}

/**
 * Streams a one-sheet workbook: the sheet XML is written row by row straight into the zip, so
 * memory stays flat however many rows there are.
 */
export function writeXlsx(
  columns: readonly XlsxColumn[],
  rows: AsyncIterable<readonly XlsxCell[]>,
  sheetName = "Report",
  /** The row the headers go in (the rows above stay empty), as an upload layout reads them. */
  headerRow = 1,
): Readable {
  const zip = new yazl.ZipFile();
  const mtime = new Date();
  const small = { mtime, compressionLevel: 6 };
  zip.addBuffer(Buffer.from(CONTENT_TYPES), "[Content_Types].xml", small);
  zip.addBuffer(Buffer.from(ROOT_RELS), "_rels/.rels", small);
  zip.addBuffer(Buffer.from(workbook(sheetName)), "xl/workbook.xml", small);
  zip.addBuffer(Buffer.from(WORKBOOK_RELS), "xl/_rels/workbook.xml.rels", small);
  zip.addBuffer(Buffer.from(STYLES), "xl/styles.xml", small);

  const sheet = new PassThrough();
  zip.addReadStream(sheet, "xl/worksheets/sheet1.xml", { mtime, compressionLevel: 1 });
  zip.end();

  const letters = columns.map((_, i) => columnName(i));
  void (async () => {
    const write = async (text: string) => {
      if (!sheet.write(text)) await new Promise((resolve) => sheet.once("drain", resolve));
    };
    try {
      await write(
        `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetViews><sheetView workbookViewId="0"><pane ySplit="${headerRow}" topLeftCell="A${headerRow + 1}" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews><sheetData>`,
      );
      await write(
        `<row r="${headerRow}">${columns.map((c, i) => textCell(`${letters[i]}${headerRow}`, c.header, ' s="2"')).join("")}</row>`,
      );
      const types = columns.map((c) => c.type);
      let r = headerRow;
      let chunk = "";
      for await (const row of rows) {
        r += 1;
        // A loop, not map and join: this runs for every cell of a million-row export.
        const number = String(r);
        chunk += `<row r="${number}">`;
        for (let i = 0; i < row.length; i++) chunk += cell(letters[i] + number, types[i], row[i]);
        chunk += "</row>";
        if (chunk.length > 64_000) {
          await write(chunk);
          chunk = "";
        }
      }
      await write(`${chunk}</sheetData></worksheet>`);
      sheet.end();
    } catch (error) {
      sheet.destroy(error as Error);
    }
  })();
  return zip.outputStream as Readable;
}

/** The download name: Report plus a timestamp of the form _YYYY-MM-DD_H-mm-ss (SPEC.md §9). */
export function reportFileName(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  const date = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `Report_${date}_${now.getHours()}-${pad(now.getMinutes())}-${pad(now.getSeconds())}.xlsx`;
}

export const XLSX_CONTENT_TYPE =
  "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
