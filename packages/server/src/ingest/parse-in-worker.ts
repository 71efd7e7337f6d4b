import { Worker } from "node:worker_threads";
import type { ReadOptions, SheetRow } from "./xlsx-reader.ts";
import type { ParseJob, WorkerMessage } from "./xlsx-worker.ts";
import { FileFormatError } from "./zip-archive.ts";

export interface WorkerLimits {
  /** Heap of the parsing thread, in MB. */
  maxMemoryMb: number;
  /** Longest a parse may take, in milliseconds. */
  maxMilliseconds: number;
}

const ENTRY = new URL("./xlsx-worker-entry.mjs", import.meta.url);

/** A parsing thread started ahead of need; each thread parses one file and is then stopped. */
let spare: { worker: Worker; memoryMb: number } | undefined;

/**
 * Starts a parsing thread ahead of the next upload, which then does not wait the ~0.2 s a thread
 * takes to load. An idle spare does not keep the process alive.
 */
export function prepareParser(maxMemoryMb: number): void {
  if (spare?.memoryMb === maxMemoryMb) return;
  if (spare) void spare.worker.terminate();
  const worker = new Worker(ENTRY, { resourceLimits: { maxOldGenerationSizeMb: maxMemoryMb } });
  worker.unref();
  // A spare that fails while idle is dropped; the next parse starts a thread of its own.
  const drop = () => {
    if (spare?.worker === worker) spare = undefined;
  };
  worker.once("error", drop);
  worker.once("exit", drop);
  spare = { worker, memoryMb: maxMemoryMb };
}

function takeParser(maxMemoryMb: number): Worker {
  prepareParser(maxMemoryMb);
  const { worker } = spare as { worker: Worker };
  spare = undefined;
  worker.ref();
  return worker;
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
  const worker = takeParser(limits.maxMemoryMb);
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
  worker.postMessage({ filePath, options } satisfies ParseJob);
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
    prepareParser(limits.maxMemoryMb);
  }
}
