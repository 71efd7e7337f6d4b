import { type CopyValue, flatCopyData } from "../db/copy-text.ts";
import { passedRows, type RowChunk } from "./rows.ts";

const TAB = 9;
const NEWLINE = 10;

/**
 * The chunk as the parser thread sends a layout without reference columns: the COPY text of the
 * rows that passed (rule-breaking ones included), as UTF-8 bytes, each line led by its file row number (a stage's `_row_no`),
 * in place of their values. The server thread then holds one buffer per chunk, outside its heap,
 * instead of a value per cell, and only passes it on to COPY (see docs/decisions.md).
 */
export function withCopyText(chunk: RowChunk, width: number): RowChunk {
  const passed =
    chunk.failed.length === 0
      ? chunk
      : passedRows(chunk, width, new Set(chunk.failed.map((row) => row.rowNumber)));
  // A text of its own, not a slice of Buffer's shared pool: its memory moves to the server thread.
  const copyText = new TextEncoder().encode(
    flatCopyData(passed.values as CopyValue[], width, passed.rowNumbers).text,
  );
  return { ...chunk, values: [], copyText };
}

/**
 * A chunk's COPY text (withCopyText) without the row number that leads each line: the records'
 * own columns, as a first load writes them. Row numbers are digits, and a tab or a line break
 * inside a value is escaped, so the first tab of a line ends its number and a newline byte ends it.
 */
export function withoutRowNumbers(text: Uint8Array): Buffer<ArrayBuffer> {
  const from = Buffer.from(text.buffer, text.byteOffset, text.byteLength);
  const to = Buffer.allocUnsafe(from.length);
  let read = 0;
  let written = 0;
  while (read < from.length) {
    const tab = from.indexOf(TAB, read);
    const end = from.indexOf(NEWLINE, tab);
    written += from.copy(to, written, tab + 1, end + 1);
    read = end + 1;
  }
  return to.subarray(0, written);
}
