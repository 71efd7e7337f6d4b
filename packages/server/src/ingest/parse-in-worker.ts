import { Worker } from "node:worker_threads";
import { IngestRejected, type RowChunk } from "./ingest-input.ts";
import type { LayoutColumn, ParseJob, WorkerMessage } from "./xlsx-worker.ts";
import { FileFormatError } from "./zip-archive.ts";

export interface WorkerLimits {
  /** Heap of the parsing thread, in MB. */
  maxMemoryMb: number;
  /** Longest a parse may take, in milliseconds. */
  maxMilliseconds: number;
}

// From source the worker needs the TypeScript loader registered first; the compiled server
// (scripts/build-server.ts) has the worker bundled beside it as xlsx-worker.js.
const ENTRY = import.meta.url.endsWith(".ts")
  ? new URL("./xlsx-worker-entry.mjs", import.meta.url)
  : new URL("./xlsx-worker.js", import.meta.url);

/**
 * The parser thread's young generation: V8's default size (three 16 MB semi-spaces' worth), set
 * so that a server started with a larger `--max-semi-space-size` does not pass it on to the thread
 * (worker threads inherit it), where it only kept about 100 MB more memory committed during a
 * large upload: the parser holds little between its chunks (about 20 MB live).
 */
const PARSER_YOUNG_GENERATION_MB = 48;

/** A parsing thread started ahead of need; each thread parses one file and is then stopped. */
let spare: { worker: Worker; memoryMb: number } | undefined;

/**
 * Starts a parsing thread ahead of the next upload, which then does not wait the ~0.2 s a thread
 * takes to load. An idle spare does not keep the process alive.
 */
export function prepareParser(maxMemoryMb: number): void {
  if (spare?.memoryMb === maxMemoryMb) return;
  if (spare) void spare.worker.terminate();
  const worker = new Worker(ENTRY, {
    resourceLimits: {
      maxOldGenerationSizeMb: maxMemoryMb,
      maxYoungGenerationSizeMb: PARSER_YOUNG_GENERATION_MB,
    },
  });
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

/** What the parser thread reads a file through: the sheet's limits, the layout and its type's attributes. */
export type ParseRequest = Omit<ParseJob, "filePath">;

/** A file being read by a parser thread. */
export interface LayoutInWorker {
  /** The columns the layout mapped, in the order of RowChunk.values. */
  columns: LayoutColumn[];
  /** The converted rows. */
  chunks: AsyncGenerator<RowChunk>;
  /** Stops the thread, read to the end or not; call it whatever happens. */
  close(): Promise<void>;
}

/**
 * Reads a file through a layout in a worker thread with its own memory and time limits, so a
 * large or hostile file never stalls the server's event loop: answers the columns the layout
 * mapped (or throws as the header row or the file is refused, the thread stopped) and the
 * converted rows, in chunks.
 */
export async function openLayoutInWorker(
  filePath: string,
  request: ParseRequest,
  limits: WorkerLimits,
): Promise<LayoutInWorker> {
  const messages = parseInWorker({ filePath, ...request }, limits);
  const close = async () => {
    await messages.return(undefined);
  };
  const first = await messages.next().catch(async (error: unknown) => {
    await close();
    throw error;
  });
  if (first.done || first.value.kind !== "columns") {
    await close();
    throw new Error("the parser thread sent no columns");
  }
  async function* chunks(): AsyncGenerator<RowChunk> {
    for await (const message of messages) if (message.kind === "rows") yield message.chunk;
  }
  return { columns: first.value.columns, chunks: chunks(), close };
}

type ParseOutput = Extract<WorkerMessage, { kind: "columns" | "rows" }>;

/** Runs one parse job in a parser thread; yields what it sends, throws what it reports. */
async function* parseInWorker(job: ParseJob, limits: WorkerLimits): AsyncGenerator<ParseOutput> {
  const worker = takeParser(limits.maxMemoryMb);
  const queue: (WorkerMessage | Error)[] = [];
  let wake: (() => void) | undefined;
  const push = (item: WorkerMessage | Error) => {
    queue.push(item);
    wake?.();
  };
  worker.on("message", (m: WorkerMessage) => push(m));
  // The thread's own error text can name server paths: the user reads a plain sentence.
  worker.on("error", (e) =>
    push(new FileFormatError("The file could not be read: the reader stopped", { cause: e })),
  );
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
  worker.postMessage(job);
  try {
    for (;;) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift() as WorkerMessage | Error;
      if (item instanceof Error) throw item;
      switch (item.kind) {
        case "error":
          throw item.fileFormat ? new FileFormatError(item.message) : new Error(item.message);
        case "rejected":
          throw new IngestRejected(item.status, item.message);
        case "done":
          return;
        case "rows":
          worker.postMessage("more");
          yield item;
          break;
        case "columns":
          yield item;
      }
    }
  } finally {
    clearTimeout(timer);
    await worker.terminate();
    prepareParser(limits.maxMemoryMb);
  }
}
