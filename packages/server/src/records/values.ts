import { constants, deflateRawSync } from "node:zlib";
import { firstValueError, type ScalarValue } from "@ledgerline/contract";
import { checkCron } from "../dictionary/cron.ts";
import type { Attribute } from "../model/model.ts";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A valid calendar date in YYYY-MM-DD form (rejects 2023-02-30). */
export function isIsoDate(text: string): boolean {
  const m = DATE.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

/**
 * The most bytes a text takes in one of its indexes' entries, once PostgreSQL has compressed it:
 * a B-tree entry holds 2,704 bytes with its header and other columns, and a filterable text's
 * StartsWith index holds it twice (lowercased, and as it is). Undefined: not indexed.
 */
function indexEntryBudget(attr: Attribute): number | undefined {
  if (attr.filter) return 1340;
  if (attr.identity || attr.rules.some((r) => r.kind === "unique")) return 2680;
  return undefined;
}

/**
 * About the bytes PostgreSQL's pglz makes of a text in an index entry. pglz has no entropy coding:
 * deflate with fixed codes packs within a few percent of it (measured: 0.91-1.05 of pglz's size
 * on prose, hex and letters), where plain deflate packs hex into half. pglz keeps a text as it is
 * unless it saves a quarter.
 */
function indexedSize(text: string, bytes: number): number {
  const packed = Math.ceil(deflateRawSync(text, { strategy: constants.Z_FIXED }).length * 1.06);
  return packed <= bytes * 0.75 ? packed : bytes;
}

/**
 * Why a text cannot be stored in its attribute (too large for its index, or not in its declared
 * format), or undefined when it is fine. Saves check it through convertValue; uploads call it for
 * every String cell, metadata imports for every text of their rows.
 */
export function textProblem(attr: Attribute, text: string): string | undefined {
  const budget = indexEntryBudget(attr);
  // Most texts are short: a UTF-16 unit is at most 3 bytes, so only longer ones are measured, and
  // only those longer than the budget are compressed.
  if (budget !== undefined && text.length > budget / 3) {
    const bytes = Buffer.byteLength(text);
    const stored = bytes > budget ? indexedSize(text, bytes) : bytes;
    if (stored > budget)
      return `too long to be indexed: about ${stored.toLocaleString("en-US")} bytes once compressed, where an index entry holds ${budget.toLocaleString("en-US")} of a ${attr.filter ? "filterable" : "key or unique"} text`;
  }
  if (attr.format !== "cron") return undefined;
  const check = checkCron(text);
  return check.valid
    ? undefined
    : `${JSON.stringify(text)} is not a valid cron string (${check.message})`;
}

export type Converted = { ok: true; value: ScalarValue } | { ok: false; reason: string };

/**
 * The message of the first error rule a converted value breaks (data quality rules, unique aside),
 * or undefined. Warnings never refuse a value; the approver sees them.
 */
export function ruleProblem(attr: Attribute, value: ScalarValue): string | undefined {
  if (attr.rules.length === 0) return undefined;
  return firstValueError(attr, value);
}

/** The converted value, or the first error rule it breaks. */
function keepingRules(attr: Attribute, value: ScalarValue): Converted {
  const problem = ruleProblem(attr, value);
  return problem === undefined ? { ok: true, value } : { ok: false, reason: problem };
}

/**
 * Converts a value sent by a client to the attribute's type. Empty text counts as no value; a
 * missing value is refused unless the attribute is nullable; a value breaking an error rule too,
 * unless it is the record's `stored` value (an edit sending it back changes nothing).
 */
export function convertValue(attr: Attribute, raw: ScalarValue, stored?: ScalarValue): Converted {
  const converted = convertType(attr, raw);
  // A rule judges what a change sets: the value stored already passes, whatever rule came later.
  if (
    !converted.ok ||
    converted.value === null ||
    (stored !== undefined && sameValue(converted.value, stored))
  )
    return converted;
  return keepingRules(attr, converted.value);
}

function convertType(attr: Attribute, raw: ScalarValue): Converted {
  const empty = raw === null || (typeof raw === "string" && raw.trim() === "");
  if (empty)
    return attr.nullable ? { ok: true, value: null } : { ok: false, reason: "a value is required" };
  switch (attr.dataType) {
    case "String": {
      const problem = textProblem(attr, String(raw));
      return problem ? { ok: false, reason: problem } : { ok: true, value: String(raw) };
    }
    case "Number": {
      const n =
        typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw.trim()) : Number.NaN;
      return Number.isFinite(n)
        ? { ok: true, value: n }
        : { ok: false, reason: `${JSON.stringify(raw)} is not a number` };
    }
    case "Boolean":
      if (typeof raw === "boolean") return { ok: true, value: raw };
      if (raw === "true" || raw === "false") return { ok: true, value: raw === "true" };
      return { ok: false, reason: `${JSON.stringify(raw)} is not true or false` };
    case "Date":
      return typeof raw === "string" && isIsoDate(raw.trim())
        ? { ok: true, value: raw.trim() }
        : { ok: false, reason: `${JSON.stringify(raw)} is not a date (YYYY-MM-DD)` };
    case "Reference": {
      const n =
        typeof raw === "number" ? raw : typeof raw === "string" ? Number(raw.trim()) : Number.NaN;
      return Number.isInteger(n) && n > 0
        ? { ok: true, value: n }
        : { ok: false, reason: `${JSON.stringify(raw)} is not a key id` };
    }
  }
}

/** Two stored values are the same (numbers and dates compare by value). */
export function sameValue(a: ScalarValue | undefined, b: ScalarValue | undefined): boolean {
  return (
    (a ?? null) === (b ?? null) ||
    (a !== null && b !== null && a !== undefined && b !== undefined && String(a) === String(b))
  );
}
