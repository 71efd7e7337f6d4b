import { type FileLayoutInfo, UPLOAD_PROBLEMS_HEADER } from "@ledgerline/contract";

/** What the file chooser offers; the server checks the content again. */
export const XLSX_ACCEPT =
  ".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";

export interface UploadFlags {
  deleteMissing: boolean;
  approveEverything: boolean;
}

export const NO_FLAGS: UploadFlags = { deleteMissing: false, approveEverything: false };

/** One upload as sent; a flag left undefined lets the server apply the layout default. */
export interface UploadRequest {
  context: string;
  layout: string;
  file: File;
  deleteMissing?: boolean;
  approveEverything?: boolean;
  dryRun: boolean;
  confirmMassMissing?: boolean;
}

/** The flags a layout pre-ticks (SPEC.md section 4: those whose default is true). */
export function layoutDefaults(layout: FileLayoutInfo | undefined): UploadFlags {
  return layout
    ? { deleteMissing: layout.deleteMissing, approveEverything: layout.approveEverything }
    : NO_FLAGS;
}

export const isXlsxName = (name: string): boolean => /\.xlsx$/i.test(name);

export const yesNo = (value: boolean): string => (value ? "yes" : "no");

/** The multipart body of POST /api/upload (contract UploadFields plus `uploadfile`). */
export function uploadFormData(request: UploadRequest): FormData {
  const form = new FormData();
  form.append("context", request.context);
  form.append("layout", request.layout);
  if (request.deleteMissing !== undefined)
    form.append("deleteMissing", String(request.deleteMissing));
  if (request.approveEverything !== undefined)
    form.append("approveEverything", String(request.approveEverything));
  form.append("dryRun", String(request.dryRun));
  if (request.confirmMassMissing) form.append("confirmMassMissing", "true");
  // Fields first: the server reads the parts in order and streams the file to disk.
  form.append("uploadfile", request.file, request.file.name);
  return form;
}

/** How many changes the summary says wait for approval ('…; 10 changes pending approval'). */
export function pendingCount(summary: string): number {
  const match = /(\d+) changes? pending approval/.exec(summary);
  return match ? Number(match[1]) : 0;
}

/** Splits a server answer into its first line and the problem lines after it. */
export function answerLines(text: string): { head: string; items: string[] } {
  const [head = "", ...rest] = text.trim().split(/\r?\n/);
  return { head, items: rest.filter((line) => line.trim() !== "") };
}

/** The header naming an upload (its id), on success and on refusal. */
export const UPLOAD_ID_HEADER = "x-upload-id";

/** A refused upload's list of failing rows, downloadable as a workbook. */
export interface ProblemList {
  uploadId: number;
  /** Rows in the list. */
  rows: number;
}

const positiveInt = (text: string | null): number | undefined => {
  const n = text === null || text.trim() === "" ? Number.NaN : Number(text);
  return Number.isInteger(n) && n > 0 ? n : undefined;
};

/** The upload's id from its answer's header, if the server named one. */
export function uploadIdOf(header: (name: string) => string | null): number | undefined {
  return positiveInt(header(UPLOAD_ID_HEADER));
}

/** The problem list a refusal offers (x-upload-problems next to x-upload-id), if any. */
export function problemListOf(header: (name: string) => string | null): ProblemList | undefined {
  const uploadId = uploadIdOf(header);
  const rows = positiveInt(header(UPLOAD_PROBLEMS_HEADER));
  return uploadId !== undefined && rows !== undefined ? { uploadId, rows } : undefined;
}

/** The download button's text: 'Download the problem list (N rows)'. */
export function problemListLabel(rows: number): string {
  return `Download the problem list (${rows} ${rows === 1 ? "row" : "rows"})`;
}
