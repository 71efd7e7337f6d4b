import type { ScalarValue } from "@ledgerline/contract";
import type { Attribute } from "../model/model.ts";
import { isIsoDate, ruleProblem, textProblem } from "../records/values.ts";
import { type CellValue, isDateSerial, serialToDate } from "./xlsx-reader.ts";

/** A reference given as the referenced record's identity or label text, resolved later in bulk. */
export interface ReferenceText {
  ref: string;
}

export type IngestValue = ScalarValue | ReferenceText;

/**
 * A converted cell, or why it cannot be stored. `broken`: the first error rule a storable value
 * breaks, which refuses the row only where it sets the value (ingest/rule-breaking.ts).
 */
export type CellResult =
  | { ok: true; value: IngestValue; broken?: string }
  | { ok: false; reason: string };

const TRUE = new Set(["true", "yes", "y", "1", "x"]);
const FALSE = new Set(["false", "no", "n", "0"]);

// A module-level function, not a closure per cell: this runs for every cell of a large file.
function notA(cell: CellValue, what: string): CellResult {
  const shown = typeof cell === "object" && cell !== null ? cell.date : JSON.stringify(cell);
  return { ok: false, reason: `${shown} is not ${what}` };
}

/**
 * Converts one spreadsheet cell to an attribute's type (usual spellings of booleans, Excel and ISO
 * dates) and checks the attribute's rules on the value.
 */
export function convertCell(attr: Attribute, cell: CellValue | undefined): CellResult {
  const result = convertCellType(attr, cell);
  if (!result.ok || attr.rules.length === 0) return result;
  const { value } = result;
  if (value === null || typeof value === "object") return result;
  const broken = ruleProblem(attr, value);
  return broken === undefined ? result : { ok: true, value, broken };
}

function convertCellType(attr: Attribute, cell: CellValue | undefined): CellResult {
  const text = typeof cell === "string" ? cell.trim() : undefined;
  if (cell === undefined || cell === null || text === "") {
    return attr.nullable ? { ok: true, value: null } : { ok: false, reason: "a value is required" };
  }
  switch (attr.dataType) {
    case "String": {
      const value =
        typeof cell === "object" ? cell.date : typeof cell === "string" ? cell : String(cell);
      const problem = textProblem(attr, value);
      return problem ? { ok: false, reason: problem } : { ok: true, value };
    }
    case "Number": {
      if (typeof cell === "number") return { ok: true, value: cell };
      const n = text !== undefined ? Number(text) : Number.NaN;
      return Number.isFinite(n) ? { ok: true, value: n } : notA(cell, "a number");
    }
    case "Boolean": {
      if (typeof cell === "boolean") return { ok: true, value: cell };
      const word = typeof cell === "number" ? String(cell) : (text ?? "").toLowerCase();
      if (TRUE.has(word)) return { ok: true, value: true };
      if (FALSE.has(word)) return { ok: true, value: false };
      return notA(cell, "true or false");
    }
    case "Date": {
      if (typeof cell === "object") return { ok: true, value: cell.date };
      if (typeof cell === "number" && isDateSerial(cell))
        return { ok: true, value: serialToDate(cell) };
      if (
        text !== undefined &&
        isIsoDate(text.slice(0, 10)) &&
        (text.length === 10 || text[10] === "T" || text[10] === " ")
      )
        return { ok: true, value: text.slice(0, 10) };
      return notA(cell, "a date (YYYY-MM-DD or an Excel date)");
    }
    case "Reference":
      if (typeof cell === "object") return { ok: true, value: { ref: cell.date } };
      return { ok: true, value: { ref: typeof cell === "string" ? cell.trim() : String(cell) } };
  }
}

/** Normalises a header for matching: case and surrounding or repeated spaces are ignored. */
export function normaliseHeader(text: string): string {
  return text.trim().replace(/\s+/g, " ").toLowerCase();
}
