/** A value as COPY's text format reads it. */
export type CopyValue = string | number | boolean | null;

const SPECIAL = /[\\\n\r\t]/;
const SPECIALS = /[\\\n\r\t]/g;
const ESCAPES: Record<string, string> = { "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function field(value: CopyValue): string {
  if (value === null) return "\\N";
  if (typeof value === "boolean") return value ? "t" : "f";
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${value} cannot be stored as a number`);
    return String(value);
  }
  if (typeof value !== "string") throw new Error(`a ${typeof value} cannot be written by COPY`);
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]) : value;
}

/** Rows in COPY's text format: tab-separated fields, `\N` for null, one line per row. */
export function copyText(rows: readonly (readonly CopyValue[])[]): string {
  return flatCopyData(rows.flat(), rows[0]?.length ?? 0).text;
}

/**
 * Rows ready for COPY: their text (or its UTF-8 bytes, as the upload's parser thread makes them),
 * and how many there are (a COPY checks it wrote them all).
 */
export interface CopyData {
  text: string | Uint8Array<ArrayBuffer>;
  rows: number;
}

export function copyData(rows: readonly (readonly CopyValue[])[]): CopyData {
  return { text: copyText(rows), rows: rows.length };
}

/**
 * Rows given flat (`width` values per row, row after row) ready for COPY; with `leading`, each
 * line starts with that row's number from it (a stage's `_row_no`).
 */
export function flatCopyData(
  values: readonly CopyValue[],
  width: number,
  leading?: readonly number[],
): CopyData & { text: string } {
  const rows = width === 0 ? 0 : values.length / width;
  let text = "";
  for (let r = 0, at = 0; r < rows; r++) {
    let line = leading ? `${leading[r]}\t` : "";
    for (let c = 0; c < width; c++, at++) line += (c === 0 ? "" : "\t") + field(values[at]);
    text += `${line}\n`;
  }
  return { text, rows };
}
