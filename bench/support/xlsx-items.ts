// Writes large item workbooks for the ingest benchmark (shared strings, as Excel writes them) and
// reads them back the plain way (yauzl + saxes) for the baseline.
import fs from "node:fs";
import { pipeline } from "node:stream/promises";
import { SaxesParser } from "saxes";
import yauzl from "yauzl";
import yazl from "yazl";
import { serialToDate } from "../../packages/server/src/ingest/xlsx-reader.ts";
import type { RawCopy } from "./app.ts";
import { BENCH_CATEGORIES } from "./model.ts";
import { ITEM_COLUMNS, ITEM_SHEET } from "./workload.ts";

/** One item row: strings, numbers, a boolean and an Excel date serial. */
export function itemRow(i: number, changed = false): (string | number | boolean)[] {
  const h = ((i * 2654435761) >>> 0).toString(16).padStart(8, "0");
  return [
    `IT${String(i).padStart(7, "0")}`,
    changed ? `Changed ${h}` : `Name ${h}`,
    BENCH_CATEGORIES[i % BENCH_CATEGORIES.length],
    `Region ${i % 50}`,
    Math.round(((i * 7919) % 100000) + (changed ? 1 : 0)) / 100,
    i % 1000,
    i % 10 !== 0,
    36526 + (i % 9000),
    (i * 31) % 1000,
    `Description of item ${i} ${h}`,
  ];
}

/** The keys of the first upload and of the re-upload (10% changed, 5% new, 5% removed). */
export function itemPlan(rows: number, again: boolean): { i: number; changed: boolean }[] {
  const plan: { i: number; changed: boolean }[] = [];
  for (let i = 1; i <= rows; i++) {
    if (again && i % 20 === 0) continue; // 5% removed
    plan.push({ i, changed: again && i % 10 === 1 }); // 10% changed
  }
  if (again)
    for (let i = rows + 1; i <= rows + Math.floor(rows / 20); i++) plan.push({ i, changed: false });
  return plan;
}

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function colName(c: number): string {
  return String.fromCharCode(65 + c);
}

/** Writes an .xlsx of the plan's rows (headers first) to file. */
export async function writeItemsWorkbook(
  file: string,
  plan: readonly { i: number; changed: boolean }[],
): Promise<void> {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const sst = (s: string) => {
    let n = index.get(s);
    if (n === undefined) {
      n = strings.length;
      strings.push(s);
      index.set(s, n);
    }
    return n;
  };
  const parts: string[] = [
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>',
  ];
  const cell = (ref: string, v: string | number | boolean) =>
    typeof v === "string"
      ? `<c r="${ref}" t="s"><v>${sst(v)}</v></c>`
      : typeof v === "boolean"
        ? `<c r="${ref}" t="b"><v>${v ? 1 : 0}</v></c>`
        : `<c r="${ref}"><v>${v}</v></c>`;
  const addRow = (r: number, values: readonly (string | number | boolean)[]) =>
    parts.push(
      `<row r="${r}">${values.map((v, c) => cell(`${colName(c)}${r}`, v)).join("")}</row>`,
    );
  addRow(
    1,
    ITEM_COLUMNS.map(([, header]) => header),
  );
  for (const [n, p] of plan.entries()) addRow(n + 2, itemRow(p.i, p.changed));
  parts.push("</sheetData></worksheet>");
  const shared = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="${strings.length}" uniqueCount="${strings.length}">${strings.map((s) => `<si><t>${esc(s)}</t></si>`).join("")}</sst>`;
  const zip = new yazl.ZipFile();
  const add = (name: string, text: string) => zip.addBuffer(Buffer.from(text), name);
  add(
    "[Content_Types].xml",
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>',
  );
  add(
    "_rels/.rels",
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
  );
  add(
    "xl/workbook.xml",
    `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${ITEM_SHEET}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  add(
    "xl/_rels/workbook.xml.rels",
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>',
  );
  add("xl/sharedStrings.xml", shared);
  zip.addBuffer(Buffer.from(parts.join("")), "xl/worksheets/sheet1.xml");
  zip.end();
  await pipeline(zip.outputStream, fs.createWriteStream(file));
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (err, zip) =>
      err || !zip ? reject(err) : resolve(zip),
    ),
  );
}

/** Streams one entry of the zip through a saxes parser set up by `listen`. */
async function parseEntry(
  zip: yauzl.ZipFile,
  entries: Map<string, yauzl.Entry>,
  name: string,
  listen: (parser: SaxesParser) => void,
): Promise<void> {
  const entry = entries.get(name);
  if (!entry) throw new Error(`${name} is missing`);
  const stream = await new Promise<NodeJS.ReadableStream>((resolve, reject) =>
    zip.openReadStream(entry, (err, s) => (err || !s ? reject(err) : resolve(s))),
  );
  const parser = new SaxesParser();
  listen(parser);
  stream.setEncoding("utf8");
  for await (const chunk of stream) parser.write(chunk as string);
  parser.close();
}

/**
 * The baseline reader: yauzl + saxes over the shared strings and the sheet; calls onRows with
 * batches of cell arrays (header row skipped), awaiting each batch (back pressure).
 */
export async function readItemsPlain(
  file: string,
  batchSize: number,
  onRows: (rows: (string | number | boolean | null)[][]) => Promise<void>,
): Promise<number> {
  const zip = await openZip(file);
  try {
    const entries = new Map<string, yauzl.Entry>();
    await new Promise<void>((resolve, reject) => {
      zip.on("entry", (e: yauzl.Entry) => {
        entries.set(e.fileName, e);
        zip.readEntry();
      });
      zip.on("end", resolve);
      zip.on("error", reject);
      zip.readEntry();
    });
    const strings: string[] = [];
    await parseEntry(zip, entries, "xl/sharedStrings.xml", (p) => {
      let text = "";
      let inT = false;
      p.on("opentag", (t) => {
        if (t.name === "si") text = "";
        else if (t.name === "t") inT = true;
      });
      p.on("text", (s) => {
        if (inT) text += s;
      });
      p.on("closetag", (t) => {
        if (t.name === "t") inT = false;
        else if (t.name === "si") strings.push(text);
      });
    });
    let count = 0;
    let batch: (string | number | boolean | null)[][] = [];
    let row: (string | number | boolean | null)[] = [];
    let type = "";
    let col = 0;
    let value = "";
    let inV = false;
    let rowNum = 0;
    const pending: Promise<void>[] = [];
    await parseEntry(zip, entries, "xl/worksheets/sheet1.xml", (p) => {
      p.on("opentag", (t) => {
        if (t.name === "row") {
          row = new Array(ITEM_COLUMNS.length).fill(null);
          rowNum = Number(t.attributes.r);
        } else if (t.name === "c") {
          type = String(t.attributes.t ?? "n");
          col = String(t.attributes.r).charCodeAt(0) - 65;
          value = "";
        } else if (t.name === "v") inV = true;
      });
      p.on("text", (s) => {
        if (inV) value += s;
      });
      p.on("closetag", (t) => {
        if (t.name === "v") inV = false;
        else if (t.name === "c")
          row[col] =
            type === "s" ? strings[Number(value)] : type === "b" ? value === "1" : Number(value);
        else if (t.name === "row" && rowNum > 1) {
          batch.push(row);
          count += 1;
          if (batch.length >= batchSize) {
            pending.push(onRows(batch));
            batch = [];
          }
        }
      });
    });
    if (batch.length > 0) pending.push(onRows(batch));
    await Promise.all(pending);
    return count;
  } finally {
    zip.close();
  }
}

/** Where the baseline loads the rows: a plain table with a primary key only. */
export const BASELINE_TABLE = {
  schema: "public",
  table: "baseline_items",
  columns: ITEM_COLUMNS.map(([attribute]) => attribute),
};

/**
 * The ingest baseline (c): readItemsPlain, dates converted, each batch of 5,000 COPYed into
 * BASELINE_TABLE, several at once. Answers the rows loaded.
 */
export function loadItemsPlain(file: string, copy: RawCopy): Promise<number> {
  return readItemsPlain(file, 5_000, (batch) => {
    for (const r of batch) r[7] = serialToDate(Number(r[7]));
    return copy(BASELINE_TABLE, batch);
  });
}
