import { execFile } from "node:child_process";
import fsp from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ExcelJS from "exceljs";
import { type MemoryFigures, watchMemory } from "./workload.ts";

const run = promisify(execFile);

const MB = 1024 * 1024;

export interface ExportRun {
  seconds: number;
  bytes: number;
  /** This process's memory (the server's, as the client runs apart) before the request, in MB. */
  before: MemoryFigures;
  /** Each figure's own peak during the request, in MB. */
  peak: MemoryFigures;
  /** The client process's peak RSS, in MB. */
  clientRssMb: number;
  /** CPU time (user and system, all threads) of this process during the request, in seconds. */
  serverCpuSeconds: number;
}

const CLIENT = fileURLToPath(new URL("./download-entry.mjs", import.meta.url));

const inMb = (m: MemoryFigures) =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, v / MB])) as MemoryFigures;

/**
 * POSTs the export from a client process of its own that streams the file to disk, and samples
 * this process's memory (the server's) every 10 ms until the last byte.
 */
export async function timedExport(
  url: string,
  cookie: string,
  body: unknown,
  file: string,
): Promise<ExportRun> {
  const memory = watchMemory();
  let peak: MemoryFigures;
  let clientRss: string;
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    ({ stdout: clientRss } = await run(process.execPath, [
      CLIENT,
      url,
      cookie,
      JSON.stringify(body),
      file,
    ]));
  } finally {
    peak = memory.stop();
  }
  const seconds = (performance.now() - started) / 1000;
  const { user, system } = process.cpuUsage(cpu);
  return {
    seconds,
    bytes: (await fsp.stat(file)).size,
    before: inMb(memory.before),
    peak: inMb(peak),
    clientRssMb: Number(clientRss) / MB,
    serverCpuSeconds: (user + system) / 1e6,
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
