import { Worker } from "node:worker_threads";
import type { Config } from "../config.ts";
import { IngestRejected } from "./ingest-input.ts";
import { enterParserLine } from "./parser-line.ts";
import type { RowChunk } from "./rows.ts";
import type { LayoutColumn, ParseJob, WorkerMessage } from "./xlsx-worker.ts";
import { FileFormatError } from "./zip-archive.ts";

/** The limits of a parse: the file's (zip-bomb guards), the thread's, and the server's line. */
export type ParserLimits = Pick<
  Config["upload"],
  | "maxDecompressedBytes"
  | "maxCompressionRatio"
  | "parserMemoryMb"
  | "parserMilliseconds"
  | "parsersMax"
  | "parsersWaiting"
>;

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

/** A parsing thread; `ready` settles once it has loaded (rejected if it failed first). */
interface Parser {
  worker: Worker;
  memoryMb: number;
  ready: Promise<void>;
}

/** A parsing thread started ahead of need; each thread parses one file and is then stopped. */
let spare: Parser | undefined;

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
  const ready = new Promise<void>((resolve, reject) => {
    const loaded = (m: WorkerMessage) => {
      if (m.kind !== "ready") return;
      worker.off("message", loaded);
      resolve();
    };
    worker.on("message", loaded);
    worker.once("error", reject);
    worker.once("exit", () => reject(new Error("the parser thread stopped while loading")));
  });
  // Whoever takes the thread hears of its failure from its events.
  ready.catch(() => undefined);
  // A spare that fails while idle is dropped; the next parse starts a thread of its own.
  const drop = () => {
    if (spare?.worker === worker) spare = undefined;
  };
  worker.once("error", drop);
  worker.once("exit", drop);
  spare = { worker, memoryMb: maxMemoryMb, ready };
}

/** Takes the spare thread (or a new one), and starts the next spare while this one reads. */
function takeParser(maxMemoryMb: number): Parser {
  prepareParser(maxMemoryMb);
  const parser = spare as Parser;
  spare = undefined;
  parser.worker.ref();
  prepareParser(maxMemoryMb);
  return parser;
}

/** What the parser thread reads a file through: the layout and its type's attributes. */
export type ParseRequest = Omit<ParseJob, "filePath" | "options">;

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
 * large or hostile file never stalls the server's event loop, once one of the server's parser
 * slots is free (parser-line.ts): answers the columns the layout mapped (or throws as the header
 * row or the file is refused, the thread stopped) and the converted rows, in chunks.
 */
export async function openLayoutInWorker(
  filePath: string,
  request: ParseRequest,
  limits: ParserLimits,
): Promise<LayoutInWorker> {
  const options = {
    sheet: request.layout.sheet,
    maxDecompressedBytes: limits.maxDecompressedBytes,
    maxCompressionRatio: limits.maxCompressionRatio,
    // The shared strings live outside the thread's heap: they get a budget of the same size.
    maxSharedStringsBytes: limits.parserMemoryMb * 1024 * 1024,
  };
  const messages = parseInWorker({ filePath, options, ...request }, limits);
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

/** How often the parser thread's busy time is looked at; a limit is kept to within this. */
const BUSY_CHECK_MS = 500;

/**
 * Runs one parse job in a parser thread, once the server's line lets it; yields what it sends,
 * throws what it reports, and every limit the thread hits as a FileFormatError naming it.
 *
 * The time limit counts the thread's busy time (its event loop's active time), not the time it
 * waits for the server to take its chunks: a million-row upload into PGlite waits minutes on the
 * database while its parser works seconds, and a hostile file gets no more time than a large one.
 */
async function* parseInWorker(job: ParseJob, limits: ParserLimits): AsyncGenerator<ParseOutput> {
  const leave = await enterParserLine(limits);
  let parser: Parser;
  try {
    parser = takeParser(limits.parserMemoryMb);
  } catch (error) {
    leave();
    throw error;
  }
  const { worker } = parser;
  const queue: (WorkerMessage | Error)[] = [];
  let wake: (() => void) | undefined;
  const push = (item: WorkerMessage | Error) => {
    queue.push(item);
    wake?.();
  };
  worker.on("message", (m: WorkerMessage) => push(m));
  // The thread's own error text can name server paths: the user reads a plain sentence, naming
  // the limit the thread hit where it hit one.
  worker.on("error", (e: Error & { code?: string }) =>
    push(
      e.code === "ERR_WORKER_OUT_OF_MEMORY"
        ? new FileFormatError(
            `The file could not be read: the reader needed more than its ${limits.parserMemoryMb} MB of memory; it was stopped`,
          )
        : new Error("the parser thread failed", { cause: e }),
    ),
  );
  worker.on("exit", (code) => {
    if (code !== 0) push(new Error(`the parser thread stopped (exit code ${code})`));
  });
  let busyCheck: NodeJS.Timeout | undefined;
  try {
    // The thread's loading (about 0.2 s, more from source) is not the file's work.
    await parser.ready.catch(() => undefined);
    const started = worker.performance.eventLoopUtilization();
    busyCheck = setInterval(
      () => {
        if (worker.performance.eventLoopUtilization(started).active <= limits.parserMilliseconds)
          return;
        clearInterval(busyCheck);
        push(new FileFormatError(timeLimitText(limits.parserMilliseconds)));
        void worker.terminate();
      },
      Math.min(BUSY_CHECK_MS, limits.parserMilliseconds / 4),
    );
    worker.postMessage(job);
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
          break;
        case "ready":
      }
    }
  } finally {
    clearInterval(busyCheck);
    await worker.terminate();
    leave();
  }
}

function timeLimitText(milliseconds: number): string {
  const seconds = Number((milliseconds / 1000).toPrecision(3)).toLocaleString("en-US");
  return `Reading the file took more than ${seconds} second${seconds === "1" ? "" : "s"} of the reader's time, the most one upload may take (UPLOAD_PARSE_TIMEOUT_SECONDS); it was stopped`;
}
