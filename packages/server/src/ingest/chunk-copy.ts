import type { ScalarValue } from "@ledgerline/contract";
import type { Db } from "../db/connection.ts";
import type { CopyData } from "../db/copy-text.ts";
import {
  type IngestInput,
  IngestRejected,
  type IngestRow,
  MAX_PROBLEMS,
  problemText,
} from "./ingest-input.ts";
import { resolveReferences } from "./reference-resolver.ts";

/** A row of the file, converted, its references resolved to record keys. */
export interface ResolvedRow {
  rowNumber: number;
  values: Record<string, ScalarValue>;
}

/** Where the chunks of rows go: the stage of a diff, or the records of a first load. */
export interface ChunkSink {
  /** A chunk's COPY data, made while the previous chunk is still being written. */
  copyData(rows: readonly ResolvedRow[]): CopyData;
  /** Writes a chunk, on the connection `copyInChunks` was given; chunks come one at a time, in file order. */
  write(data: CopyData): Promise<void>;
}

const CHUNK = 5_000;

/**
 * Streams the rows to `sink` in chunks, resolving references per chunk; throws 422 on any
 * problem, after the last problem-free chunk. Answers the number of rows read. Nothing is left
 * running when it returns or throws.
 */
export async function copyInChunks(db: Db, input: IngestInput, sink: ChunkSink): Promise<number> {
  const problems: string[] = [];
  let chunk: IngestRow[] = [];
  let count = 0;
  // One chunk is written while the next is read and converted.
  let writing: Promise<void> = Promise.resolve();
  const flush = async () => {
    // A failed write fails the rest of a transaction: its error is the one to report.
    const resolved = await resolveChunk(db, input, chunk, problems).catch(async (error) => {
      await writing;
      throw error;
    });
    chunk = [];
    if (problems.length > 0 || resolved.length === 0) return await writing;
    // Made while the previous chunk is still being written: once the connection is free, the
    // COPY only has to send it.
    const data = sink.copyData(resolved);
    await writing;
    writing = sink.write(data);
    // Handled when awaited; this keeps a failure while reading on from going unhandled.
    writing.catch(() => undefined);
  };
  try {
    for await (const row of input.rows) {
      count += 1;
      if (count > input.maxRows)
        throw new IngestRejected(
          422,
          `The file has more than ${input.maxRows} rows, the most one upload may carry`,
        );
      for (const p of row.problems)
        if (problems.length < MAX_PROBLEMS) problems.push(`row ${row.rowNumber}, ${p}`);
      if (problems.length >= MAX_PROBLEMS) break;
      chunk.push(row);
      if (chunk.length >= CHUNK) await flush();
    }
  } catch (error) {
    // A write still running must end before the caller rolls its transaction back.
    await writing.catch(() => undefined);
    throw error;
  }
  if (problems.length < MAX_PROBLEMS) await flush();
  await writing;
  if (problems.length > 0)
    throw new IngestRejected(422, problemText(problems, problems.length >= MAX_PROBLEMS));
  return count;
}

async function resolveChunk(
  db: Db,
  input: IngestInput,
  rows: IngestRow[],
  problems: string[],
): Promise<ResolvedRow[]> {
  const refs = input.attributes.filter((a) => a.dataType === "Reference");
  // Without reference columns every value is a scalar already: no copy of 5,000 rows to make.
  if (refs.length === 0) return rows as ResolvedRow[];
  const maps = new Map<string, Map<string, number>>();
  for (const attr of refs) {
    const texts = new Set<string>();
    for (const r of rows) {
      const v = r.values[attr.name];
      if (v !== null && typeof v === "object") texts.add(v.ref);
    }
    maps.set(attr.name, await resolveReferences(db, input.context, attr, texts));
  }
  return rows.map((r) => {
    const values: Record<string, ScalarValue> = {};
    for (const attr of input.attributes) {
      const v = r.values[attr.name] ?? null;
      if (v === null || typeof v !== "object") {
        values[attr.name] = v;
        continue;
      }
      const id = maps.get(attr.name)?.get(v.ref.toLowerCase());
      if (id === undefined && problems.length < MAX_PROBLEMS) {
        problems.push(
          `row ${r.rowNumber}, column '${input.columnName(attr.name)}': no ${attr.uiName} '${v.ref}'`,
        );
      }
      values[attr.name] = id ?? null;
    }
    return { rowNumber: r.rowNumber, values };
  });
}
