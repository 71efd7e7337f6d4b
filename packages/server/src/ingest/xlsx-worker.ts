// Runs in a worker thread, started ahead of need: waits for one parse job, parses that sheet and
// sends its rows to the parent in batches. It runs at most AHEAD batches ahead of the parent,
// which acknowledges each with "more": memory stays bounded, and neither side waits on the other.
import { parentPort } from "node:worker_threads";
import { type ReadOptions, readSheetRows, type SheetRow } from "./xlsx-reader.ts";
import { FileFormatError } from "./zip-archive.ts";

export interface ParseJob {
  filePath: string;
  options: ReadOptions;
}

export type WorkerMessage =
  | { kind: "rows"; rows: SheetRow[] }
  | { kind: "done" }
  | { kind: "error"; message: string; fileFormat: boolean };

const BATCH = 2_000;
const AHEAD = 3;
const port = parentPort;
if (!port) throw new Error("xlsx-worker must run as a worker thread");

let unacknowledged = 0;
let resume: (() => void) | undefined;
port.on("message", (message: ParseJob | "more") => {
  if (message !== "more") {
    void run(message);
    return;
  }
  unacknowledged -= 1;
  resume?.();
});

async function send(rows: SheetRow[]): Promise<void> {
  port?.postMessage({ kind: "rows", rows } satisfies WorkerMessage);
  unacknowledged += 1;
  while (unacknowledged >= AHEAD) await new Promise<void>((resolve) => (resume = resolve));
}

async function run({ filePath, options }: ParseJob): Promise<void> {
  let batch: SheetRow[] = [];
  try {
    for await (const rows of readSheetRows(filePath, options)) {
      for (const row of rows) batch.push(row);
      if (batch.length >= BATCH) {
        await send(batch);
        batch = [];
      }
    }
    if (batch.length > 0) await send(batch);
    port?.postMessage({ kind: "done" } satisfies WorkerMessage);
  } catch (error) {
    const fileFormat = error instanceof FileFormatError;
    port?.postMessage({
      kind: "error",
      message: fileFormat ? (error as Error).message : String(error),
      fileFormat,
    } satisfies WorkerMessage);
  }
}
