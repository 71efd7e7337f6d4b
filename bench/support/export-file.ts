import fs from "node:fs";
import fsp from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import ExcelJS from "exceljs";
import { watchRss } from "./workload.ts";

const MB = 1024 * 1024;

export interface ExportRun {
  seconds: number;
  bytes: number;
  rssBeforeMb: number;
  rssPeakMb: number;
}

/** POSTs the export, streams the file to disk, and samples RSS every 10 ms until the last byte. */
export async function timedExport(
  url: string,
  cookie: string,
  body: unknown,
  file: string,
): Promise<ExportRun> {
  const rss = watchRss();
  let peak: number;
  const started = performance.now();
  try {
    const res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify(body),
    });
    if (res.status !== 200 || !res.body)
      throw new Error(`${url}: ${res.status} ${await res.text()}`);
    await pipeline(
      Readable.fromWeb(res.body as unknown as WebReadableStream),
      fs.createWriteStream(file),
    );
  } finally {
    peak = rss.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    bytes: (await fsp.stat(file)).size,
    rssBeforeMb: rss.before / MB,
    rssPeakMb: peak / MB,
  };
}

/**
 * Reads the file back with ExcelJS's streaming reader and checks the header, the row count and the
 * first data row's code (the bench type's 10 columns, in key order).
 */
export async function checkWorkbook(
  file: string,
  rows: number,
  firstCode = "IT0000001",
): Promise<void> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {});
  let count = 0;
  let header: unknown[] = [];
  let first: unknown[] = [];
  for await (const sheet of reader) {
    for await (const row of sheet) {
      count += 1;
      if (count === 1) header = (row.values as unknown[]).slice(1);
      if (count === 2) first = (row.values as unknown[]).slice(1);
    }
  }
  if (count !== rows + 1) throw new Error(`the export holds ${count - 1} rows, not ${rows}`);
  if (header[0] !== "Code" || header.length !== 10)
    throw new Error(`unexpected header: ${JSON.stringify(header)}`);
  if (first[0] !== firstCode) throw new Error(`unexpected first row: ${JSON.stringify(first)}`);
}
