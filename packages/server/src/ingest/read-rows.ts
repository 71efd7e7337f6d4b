import { type IngestInput, IngestRejected } from "./ingest-input.ts";
import type { RowChunk } from "./rows.ts";

/**
 * Stage 1 of the ingest, read: the rows as their source gives them, a chunk at a time. An upload's
 * come from its parser thread (parse-in-worker.ts), which converts each cell to its attribute's
 * type and checks each row's rules as it reads; a metadata import's from rowChunks, which checks
 * them alike. Refuses (422) a file with more than `maxRows` rows as soon as it is read that far.
 */
export async function* readRows(
  input: Pick<IngestInput, "chunks" | "maxRows">,
): AsyncGenerator<RowChunk> {
  let count = 0;
  for await (const chunk of input.chunks) {
    count += chunk.rowNumbers.length;
    if (count > input.maxRows)
      throw new IngestRejected(
        422,
        `The file has more than ${input.maxRows.toLocaleString("en-US")} rows, the most one upload may carry (UPLOAD_MAX_ROWS)`,
      );
    yield chunk;
  }
}
