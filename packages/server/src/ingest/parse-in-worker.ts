import { Worker } from "node:worker_threads";
import type { ReadOptions, SheetRow } from "./xlsx-reader.ts";
import type { WorkerMessage } from "./xlsx-worker.ts";
import { FileFormatError } from "./zip-archive.ts";

export interface WorkerLimits {
  /** Heap of the parsing thread, in MB. */
  maxMemoryMb: number;
  /** Longest a parse may take, in milliseconds. */
  maxMilliseconds: number;
}

/**
 * Streams the rows of a sheet parsed in a worker thread with its own memory and time limits, so
 * a large or hostile file never stalls the server's event loop.
 */
export async function* parseSheetInWorker(
  filePath: string,
  options: ReadOptions,
  limits: WorkerLimits,
): AsyncGenerator<SheetRow> {
  const worker = new Worker(new URL("./xlsx-worker-entry.mjs", import.meta.url), {
    workerData: { filePath, options },
    resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
  });
  const queue: (WorkerMessage | Error)[] = [];
  let wake: (() => void) | undefined;
  const push = (item: WorkerMessage | Error) => {
    queue.push(item);
    wake?.();
  };
  worker.on("message", (m: WorkerMessage) => push(m));
  worker.on("error", (e) => push(new FileFormatError(`The file could not be read (${e.message})`)));
  worker.on("exit", (code) => {
    if (code !== 0)
      push(
        new FileFormatError(
          "The file could not be read: the reader ran out of memory or was stopped",
        ),
      );
  });
  const timer = setTimeout(() => {
    push(
      new FileFormatError(
        `Reading the file took longer than ${Math.round(limits.maxMilliseconds / 1000)} seconds; it was stopped`,
      ),
    );
    void worker.terminate();
  }, limits.maxMilliseconds);
  try {
    for (;;) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift() as WorkerMessage | Error;
      if (item instanceof Error) throw item;
      if (item.kind === "error")
        throw item.fileFormat ? new FileFormatError(item.message) : new Error(item.message);
      if (item.kind === "done") return;
      worker.postMessage("more");
      yield* item.rows;
    }
  } finally {
    clearTimeout(timer);
    await worker.terminate();
  }
}
