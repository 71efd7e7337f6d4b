import { FOLD_FROM, FOLD_TO } from "../db/migrations/018-search-fold.ts";

const FOLDED_TO = [...FOLD_TO];
const FOLDED = new Map<string, string>([...FOLD_FROM].map((c, i) => [c, FOLDED_TO[i]]));

/** What `app.search_fold` makes of a text, without its leading space: one character for each. */
export function foldText(text: string): string {
  let folded = "";
  for (const c of text) folded += FOLDED.get(c) ?? c;
  return folded;
}

const KNOWN = new Set([...FOLD_FROM, ...FOLD_TO]);

/** For each lower-case letter, the letters that lower-case to it (É for é, the Kelvin sign for k). */
const CASED_AS = new Map<string, string[]>();
for (let point = 0; point <= 0x1ffff; point++) {
  const c = String.fromCodePoint(point);
  const lower = c.toLowerCase();
  if (lower !== c) CASED_AS.set(lower, [...(CASED_AS.get(lower) ?? []), c]);
}

/**
 * Whether every letter ILIKE takes for `c` folds as `c` does: `c` has no case, or it and all its
 * case forms are in the fold's table. Not so for a case the fold does not know (Œ, Ά, Armenian),
 * nor for a letter another one lower-cases to (k, which the Kelvin sign does).
 */
function foldsAsIlikeMatches(c: string): boolean {
  const lower = c.toLowerCase();
  const forms = [c, lower, ...(CASED_AS.get(lower) ?? [])];
  return forms.every((f) => f === c) || forms.every((f) => KNOWN.has(f));
}

/**
 * A LIKE pattern for `app.search_fold(value)` that every value the pattern `pattern` matches with
 * ILIKE also matches (more may: a list checks the exact ILIKE too). Its wildcards stay (`\\`
 * escapes one), other characters are folded, and one whose case forms the fold does not all know
 * (foldsAsIlikeMatches) becomes the wildcard `_`.
 */
export function foldedLikePattern(pattern: string): string {
  let folded = "";
  let escaped = false;
  for (const c of pattern) {
    if (!escaped && c === "\\") {
      escaped = true;
      continue;
    }
    if (!escaped && (c === "%" || c === "_")) folded += c;
    else folded += foldsAsIlikeMatches(c) ? (FOLDED.get(c) ?? c) : "_";
    escaped = false;
  }
  return folded;
}

/** The part of a query that is read: longer input is cut, not refused. */
export const QUERY_READ_CHARS = 200;
/** At most this many words are searched for; the rest of a long query is left out. */
export const MAX_WORDS = 6;
/** A word longer than this is cut: no index entry holds more of a value's start. */
export const MAX_WORD_CHARS = 60;

/**
 * Words that say nothing on their own. A query of only these is searched as the start of values
 * only (a bounded index range), never as inner words, which most descriptions hold.
 */
const STOP_WORDS = new Set(
  "a an and are as at be by for from has have in is it its of on or that the to was were which with where what who how".split(
    " ",
  ),
);

export interface QueryWords {
  /** The words to find, folded, in the order typed. */
  words: string[];
  /** Only stop words were typed: values starting so are found, not inner words or typos. */
  onlyStopWords: boolean;
}

/**
 * The words of a query: its first 200 characters folded, split at spaces and punctuation (which
 * fold to spaces), at most six of at most 60 characters. Stop words are dropped when others
 * remain. What is left holds no LIKE or regular-expression operator: they all fold to spaces; nor
 * a control character (a text in PostgreSQL cannot hold NUL): they separate words too.
 */
export function queryWords(query: string): QueryWords {
  const all = foldText(query.slice(0, QUERY_READ_CHARS))
    .split(/[\s\p{Cc}]+/u)
    .filter((w) => w !== "")
    .map((w) => [...w].slice(0, MAX_WORD_CHARS).join(""));
  const meaningful = all.filter((w) => !STOP_WORDS.has(w));
  const onlyStopWords = meaningful.length === 0 && all.length > 0;
  return { words: (onlyStopWords ? all : meaningful).slice(0, MAX_WORDS), onlyStopWords };
}

/**
 * Where the words are in `value` ([start, length] in UTF-16 units), each at a word's start, or
 * anywhere when not at a start; overlapping ones merged.
 */
export function highlightsOf(value: string, words: readonly string[]): [number, number][] {
  const folded = foldText(value);
  // Folding maps one code point to one code point: positions in code points carry over.
  const points = [...value];
  const unitAt: number[] = [0];
  for (const p of points) unitAt.push(unitAt[unitAt.length - 1] + p.length);
  const foldedPoints = [...folded];
  const spans: [number, number][] = [];
  for (const word of words) {
    const w = [...word];
    const at = findPoints(foldedPoints, w);
    if (at >= 0) spans.push([at, at + w.length]);
  }
  spans.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const s of spans) {
    const last = merged[merged.length - 1];
    if (last && s[0] <= last[1]) last[1] = Math.max(last[1], s[1]);
    else merged.push([...s]);
  }
  return merged.map(([a, b]) => [unitAt[a], unitAt[b] - unitAt[a]]);
}

/** The first index of `word` in `text` at a word's start, else anywhere; -1 when absent. */
function findPoints(text: readonly string[], word: readonly string[]): number {
  let anywhere = -1;
  for (let i = 0; i + word.length <= text.length; i++) {
    if (!word.every((c, j) => text[i + j] === c)) continue;
    if (i === 0 || text[i - 1] === " ") return i;
    if (anywhere < 0) anywhere = i;
  }
  return anywhere;
}
