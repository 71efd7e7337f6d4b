import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ScalarValue } from "@ledgerline/contract";
import type { CurrentUser } from "../auth/auth.service.ts";
import type { Db } from "../db/connection.ts";
import { NotFoundError } from "../errors.ts";
import { type CellType, writeXlsx, type XlsxColumn } from "../exports/xlsx-writer.ts";
import type { Attribute, FileLayout } from "../model/model.ts";
import type { ProblemRow } from "./rows.ts";

// The problem list of a refused upload: the rows that failed, as uploaded, with a column naming
// each problem. Its sheet, header row and headers are the layout's, so a person fixes the rows
// there and uploads the file again (the extra columns are ignored).

/** How long a problem list can be downloaded after its upload. */
const KEEP_MS = 7 * 24 * 3_600_000;

export const PROBLEMS_HEADER = "Problems";
export const ROW_HEADER = "Row in the uploaded file";

function folderOf(dataDir: string): string {
  return path.join(dataDir, "upload-problems");
}

const fileOf = (dataDir: string, uploadId: number) =>
  path.join(folderOf(dataDir), `${uploadId}.xlsx`);

function cellType(attr: Attribute): CellType {
  return attr.dataType === "Reference" ? "String" : attr.dataType;
}

/** Writes the list of an upload refused for its rows; lists older than a week are removed meanwhile. */
export async function writeProblemList(
  dataDir: string,
  uploadId: number,
  layout: FileLayout,
  columns: readonly { header: string; attribute: Attribute }[],
  rows: readonly ProblemRow[],
): Promise<void> {
  const folder = folderOf(dataDir);
  await fs.mkdir(folder, { recursive: true });
  await removeOldLists(folder);
  const xlsxColumns: XlsxColumn[] = [
    ...columns.map((c) => ({ header: c.header, type: cellType(c.attribute) })),
    { header: PROBLEMS_HEADER, type: "String" },
    { header: ROW_HEADER, type: "Number" },
  ];
  async function* lines(): AsyncGenerator<ScalarValue[]> {
    for (const row of rows)
      yield [
        ...row.cells,
        row.problems.map((p) => `${p.column}: ${p.message}`).join("\n"),
        row.rowNumber,
      ];
  }
  const target = fileOf(dataDir, uploadId);
  await pipeline(
    writeXlsx(xlsxColumns, lines(), layout.sheet),
    createWriteStream(`${target}.part`),
  );
  await fs.rename(`${target}.part`, target);
}

async function removeOldLists(folder: string): Promise<void> {
  const now = Date.now();
  for (const name of await fs.readdir(folder)) {
    const file = path.join(folder, name);
    const stat = await fs.stat(file).catch(() => undefined);
    if (stat && now - stat.mtimeMs > KEEP_MS) await fs.rm(file, { force: true });
  }
}

/**
 * The problem list of an upload, for the user who made it (or an administrator): its download
 * name and contents. 404 when there is none, or it is someone else's.
 */
export async function openProblemList(
  db: Db,
  dataDir: string,
  user: CurrentUser,
  uploadId: number,
): Promise<{ fileName: string; stream: Readable }> {
  const upload = await db
    .selectFrom("app.uploads")
    .select(["file_name", "created_by"])
    .where("upload_id", "=", uploadId)
    .executeTakeFirst();
  const mine = upload && (upload.created_by === user.username || user.isadmin);
  const file = fileOf(dataDir, uploadId);
  const found = mine && (await fs.stat(file).catch(() => undefined));
  if (!upload || !found) throw new NotFoundError("This upload has no problem list (any more)");
  const base = upload.file_name.replace(/\.xlsx$/i, "");
  return { fileName: `${base} - problems.xlsx`, stream: createReadStream(file) };
}
