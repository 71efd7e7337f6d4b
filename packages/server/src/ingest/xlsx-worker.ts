// Runs in a worker thread, started ahead of need: waits for one parse job, reads that sheet,
// matches its header row to the layout and sends the converted rows to the parent in chunks. It
// runs at most AHEAD chunks ahead of the parent, which acknowledges each with "more": memory
// stays bounded, and neither side waits on the other.
import { parentPort } from "node:worker_threads";
import type { Attribute, FileLayout, TypeRule } from "../model/model.ts";
import { withCopyText } from "./chunk-text.ts";
import { IngestRejected } from "./ingest-input.ts";
import { openLayoutChunks } from "./layout-rows.ts";
import type { RowChunk } from "./rows.ts";
import { type ReadOptions, readSheetRows } from "./xlsx-reader.ts";
import { FileFormatError } from "./zip-archive.ts";

export interface ParseJob {
  filePath: string;
  options: ReadOptions;
  layout: FileLayout;
  /** The attributes of the layout's entity type, with their rules. */
  attributes: readonly Attribute[];
  /** The rules between the type's attributes, checked on every row. */
  rules: readonly TypeRule[];
}

/** A column of the file the layout maps: its header, and the attribute it fills. */
export interface LayoutColumn {
  header: string;
  attribute: string;
}

export type WorkerMessage =
  | { kind: "ready" }
  | { kind: "columns"; columns: LayoutColumn[] }
  | { kind: "rows"; chunk: RowChunk }
  | { kind: "done" }
  | { kind: "error"; message: string; fileFormat: boolean }
  | { kind: "rejected"; message: string; status: IngestRejected["status"] };

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
// Loaded: what the thread does from here on is a job's work, which its time limit counts.
port.postMessage({ kind: "ready" } satisfies WorkerMessage);

async function send(chunk: RowChunk): Promise<void> {
  // A chunk's COPY text is handed over, not copied.
  const transfer = chunk.copyText ? [chunk.copyText.buffer] : [];
  port?.postMessage({ kind: "rows", chunk } satisfies WorkerMessage, transfer);
  unacknowledged += 1;
  while (unacknowledged >= AHEAD) await new Promise<void>((resolve) => (resume = resolve));
}

async function run({ filePath, options, layout, attributes, rules }: ParseJob): Promise<void> {
  try {
    const sheet = readSheetRows(filePath, options);
    const { columns, chunks } = await openLayoutChunks(layout, { attributes, rules }, sheet);
    port?.postMessage({
      kind: "columns",
      columns: columns.map((c) => ({ header: c.header, attribute: c.attribute.name })),
    } satisfies WorkerMessage);
    // References are resolved by the server thread, against the database: those rows go as values.
    const asText = !columns.some((c) => c.attribute.dataType === "Reference");
    for await (const chunk of chunks)
      await send(asText ? withCopyText(chunk, columns.length) : chunk);
    port?.postMessage({ kind: "done" } satisfies WorkerMessage);
  } catch (error) {
    port?.postMessage(
      error instanceof IngestRejected
        ? ({ kind: "rejected", message: error.message, status: error.status } as const)
        : ({
            kind: "error",
            message: error instanceof FileFormatError ? error.message : String(error),
            fileFormat: error instanceof FileFormatError,
          } as const),
    );
  }
}
