import { z } from "zod";
import { Moment } from "./entities.ts";

/** Where in a record a search matched: its key, its label, or another searchable text. */
export const SEARCH_KINDS = ["key", "label", "other"] as const;
export const SearchKind = z.enum(SEARCH_KINDS);
export type SearchKind = z.infer<typeof SearchKind>;

/** How whole the match is: the whole value or whole words, a prefix, or a similar word (a typo). */
export const SEARCH_MATCHES = ["whole", "prefix", "similar"] as const;
export const SearchMatch = z.enum(SEARCH_MATCHES);
export type SearchMatch = z.infer<typeof SearchMatch>;

/** Queries shorter than this (in letters and digits) answer nothing: too many things start so. */
export const SEARCH_MIN_CHARS = 2;

export const SearchRequest = z.object({
  /** What the user typed. Read up to its first 200 characters; longer input is not refused. */
  query: z.string().max(10_000),
  /** Only these applications (all the caller may read when absent). */
  contexts: z.array(z.string().min(1).max(200)).max(50).optional(),
  /** Only these types, `<application>/<type>` (all the caller may read when absent). */
  types: z.array(z.string().min(1).max(300)).max(200).optional(),
  /** Only matches in these parts of a record. */
  kinds: z.array(SearchKind).max(3).optional(),
  /** Discontinued records too. */
  includeDiscontinued: z.boolean().optional(),
  /** The records as they stood at this moment (not with suggestions' speed: past versions are scanned). */
  asOf: Moment.optional(),
  /** Hits per page (the box asks for a few per type, the results page for a page). */
  pageSize: z.number().int().min(1).max(100).optional(),
  /** Counts from 1; at most as far as the 1,000 best matches of each type reach. */
  pageNum: z.number().int().min(1).max(1_000).optional(),
  /** The box: at most `pageSize` hits of each type, the best types first. */
  perType: z.boolean().optional(),
});
export type SearchRequest = z.infer<typeof SearchRequest>;

export const SearchHit = z.object({
  context: z.string(),
  contextUiName: z.string(),
  entityType: z.string(),
  entityTypeUiName: z.string(),
  entityKeyID: z.number(),
  label: z.string(),
  /** The attribute that matched, its heading, and its value (cut around the match when long). */
  attribute: z.string(),
  attributeUiName: z.string(),
  value: z.string(),
  /** Where in `value` the query's words are: [start, length] in UTF-16 code units. */
  highlights: z.array(z.tuple([z.number(), z.number()])),
  kind: SearchKind,
  match: SearchMatch,
  discontinued: z.boolean(),
});
export type SearchHit = z.infer<typeof SearchHit>;

/** The matches of one type: counted up to the 1,000 best, `more` when there may be others. */
export const SearchGroup = z.object({
  context: z.string(),
  contextUiName: z.string(),
  entityType: z.string(),
  entityTypeUiName: z.string(),
  count: z.number(),
  more: z.boolean(),
});
export type SearchGroup = z.infer<typeof SearchGroup>;

export const SearchResult = z.object({
  /** The words searched for, folded (lower case, accents removed); empty when nothing was searched. */
  words: z.array(z.string()),
  hits: z.array(SearchHit),
  /** Every type with matches, the best first; counts only of what the caller may read. */
  groups: z.array(SearchGroup),
  total: z.number(),
  more: z.boolean(),
});
export type SearchResult = z.infer<typeof SearchResult>;
