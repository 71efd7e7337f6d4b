import ExcelJS from "exceljs";
import type { LightMyRequestResponse } from "fastify";
import yazl from "yazl";
import { credentialHeaders, type TestApp } from "./test-app.ts";

/** An .xlsx with one sheet of the given rows (the first row holds the headers). */
export async function workbookOf(sheet: string, rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheet);
  for (const row of rows) ws.addRow(row);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A zip of the given parts, for crafting damaged or hostile workbooks. */
export function zipOf(parts: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(parts))
    zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on("data", (c: Buffer) => chunks.push(c));
    zip.outputStream.on("end", () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on("error", reject);
  });
}

/** The minimal parts of a workbook whose one sheet has the given XML. */
export function minimalWorkbookParts(
  sheetXml: string,
  sheetName = "Countries",
): Record<string, string> {
  return {
    "[Content_Types].xml":
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>',
    "xl/workbook.xml": `<?xml version="1.0"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="${sheetName}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    "xl/_rels/workbook.xml.rels":
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Target="worksheets/sheet1.xml" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"/></Relationships>',
    "xl/worksheets/sheet1.xml": sheetXml,
  };
}

export interface UploadOptions {
  layout: string;
  fileName?: string;
  context?: string;
  deleteMissing?: boolean;
  approveEverything?: boolean;
  dryRun?: boolean;
  confirmMassMissing?: boolean;
}

/** The multipart body of an upload, as the browser sends it. */
export function uploadForm(file: Buffer, options: UploadOptions): FormData {
  const form = new FormData();
  form.set("context", options.context ?? "reference");
  form.set("layout", options.layout);
  for (const flag of [
    "deleteMissing",
    "approveEverything",
    "dryRun",
    "confirmMassMissing",
  ] as const) {
    if (options[flag] !== undefined) form.set(flag, String(options[flag]));
  }
  form.set("uploadfile", new Blob([new Uint8Array(file)]), options.fileName ?? "upload.xlsx");
  return form;
}

/** POSTs a multipart upload as the browser does. */
export async function upload(
  t: TestApp,
  cookie: string,
  file: Buffer,
  options: UploadOptions,
): Promise<LightMyRequestResponse> {
  const form = uploadForm(file, options);
  const request = new Request("http://localhost/api/upload", { method: "POST", body: form });
  return t.app.inject({
    method: "POST",
    url: "/api/upload",
    headers: {
      ...credentialHeaders(cookie),
      "content-type": request.headers.get("content-type") as string,
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
}
