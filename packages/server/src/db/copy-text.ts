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
  return SPECIAL.test(value) ? value.replace(SPECIALS, (c) => ESCAPES[c]) : value;
}

/** Rows in COPY's text format: tab-separated fields, `\N` for null, one line per row. */
export function copyText(rows: readonly (readonly CopyValue[])[]): string {
  let text = "";
  for (const row of rows) {
    let line = "";
    for (let i = 0; i < row.length; i++) line += (i === 0 ? "" : "\t") + field(row[i]);
    text += `${line}\n`;
  }
  return text;
}

/** Rows ready for COPY: their text, and how many there are (a COPY checks it wrote them all). */
export interface CopyData {
  text: string;
  rows: number;
}

export function copyData(rows: readonly (readonly CopyValue[])[]): CopyData {
  return { text: copyText(rows), rows: rows.length };
}
