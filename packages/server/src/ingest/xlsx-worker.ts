// Runs in a worker thread: parses one sheet and sends its rows to the parent in batches,
// waiting for the parent to ask for more (backpressure), so memory stays bounded.
import { parentPort, workerData } from "node:worker_threads";
import { type ReadOptions, readSheetRows, type SheetRow } from "./xlsx-reader.ts";
import { FileFormatError } from "./zip-archive.ts";

export type WorkerMessage =
  | { kind: "rows"; rows: SheetRow[] }
  | { kind: "done" }
  | { kind: "error"; message: string; fileFormat: boolean };

const BATCH = 2_000;
const port = parentPort;
if (!port) throw new Error("xlsx-worker must run as a worker thread");
const { filePath, options } = workerData as { filePath: string; options: ReadOptions };

let resume: (() => void) | undefined;
port.on("message", (message: string) => {
  if (message === "more") resume?.();
});
const more = () => new Promise<void>((resolve) => (resume = resolve));

async function run(): Promise<void> {
  let batch: SheetRow[] = [];
  try {
    for await (const row of readSheetRows(filePath, options)) {
      batch.push(row);
      if (batch.length >= BATCH) {
        const waiting = more();
        port?.postMessage({ kind: "rows", rows: batch } satisfies WorkerMessage);
        batch = [];
        await waiting;
      }
    }
    if (batch.length > 0) {
      const waiting = more();
      port?.postMessage({ kind: "rows", rows: batch } satisfies WorkerMessage);
      await waiting;
    }
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

void run();
