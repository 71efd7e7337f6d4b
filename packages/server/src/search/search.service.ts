import {
  SEARCH_KINDS,
  SEARCH_MIN_CHARS,
  type SearchGroup,
  type SearchHit,
  type SearchMatch,
  type SearchRequest,
  type SearchResult,
} from "@ledgerline/contract";
import type { RawBuilder } from "kysely";
import { rightsOfRoles } from "../admin/permissions.ts";
import type { CurrentUser } from "../auth/auth.service.ts";
import { UnconfirmedCaller } from "../auth/caller-check.ts";
import type { Database, Db } from "../db/connection.ts";
import { pastMoment } from "../history/as-of-sql.ts";
import type { EntityType, Model } from "../model/model.ts";
import { highlightsOf, queryWords } from "./fold.ts";
import {
  type AttributeClass,
  KEY,
  LABEL,
  OTHER,
  QUALITY,
  type SearchRow,
  type SearchStatements,
  type SearchTarget,
  searchRows,
} from "./search.repository.ts";
import { type SmallRead, smallTables, type TableName } from "./small-tables.ts";

/** Hits answered when the request does not say. */
export const DEFAULT_SEARCH_PAGE = 20;
/** At most this many matches of one type are found, counted and paged through. */
export const MAX_PER_TYPE = 1_000;
/** The box counts a type's matches up to this many ('20+' beyond). */
const BOX_PER_TYPE = 20;
/** A long value is shown cut to about this many characters around its match. */
const VALUE_SHOWN = 160;

const CLASS_KIND = { [KEY]: "key", [LABEL]: "label", [OTHER]: "other" } as const;

/**
 * `POST /api/search`: the records of every type the caller may read (and of only those: no hit,
 * count or group of another), best first. Input the search cannot use (too short, only
 * punctuation) answers no hits; it is never an error. A caller taken from an earlier call comes
 * with `callerCheck` (withCallerCheck), which the statement carries.
 */
export async function search(
  database: Pick<Database, "reads" | "genericReads">,
  model: Model,
  user: CurrentUser,
  request: SearchRequest,
  callerCheck?: RawBuilder<boolean>,
): Promise<SearchResult> {
  const asOf = request.asOf === undefined ? undefined : pastMoment(request.asOf);
  const { words, onlyStopWords } = queryWords(request.query);
  const letters = words.join("").length;
  const readable = searchTargets(model, user, request);
  if (letters < SEARCH_MIN_CHARS || readable.length === 0) {
    // No statement to carry the check: the caller is read again before answering.
    if (callerCheck) throw new UnconfirmedCaller();
    return {
      words: letters < SEARCH_MIN_CHARS ? [] : words,
      hits: [],
      groups: [],
      total: 0,
      more: false,
    };
  }

  // Today's small tables are read together; a past moment's versions are always looked up.
  const small =
    asOf === undefined
      ? await smallTables(database, database.reads, searchableTables(model))
      : new Map<string, SmallRead>();
  const targets = readable.map((t) => ({
    ...t,
    small: small.get(`${t.context.schema}.${t.type.name}`),
  }));
  const size = request.pageSize ?? DEFAULT_SEARCH_PAGE;
  const offset = ((request.pageNum ?? 1) - 1) * size;
  const perTypeLimit = request.perType
    ? Math.max(BOX_PER_TYPE, size + 1)
    : Math.min(MAX_PER_TYPE, Math.max(offset + size + 1, 100));
  // Today's search is planned once per shape (Database.genericReads); a past moment's reads each
  // type's versions, whose plan depends on the moment.
  const run = (work: (db: Db) => Promise<SearchRow[]>) =>
    asOf === undefined ? database.genericReads(work) : work(database.reads);
  const rows = await run((db) =>
    searchRows(
      db,
      statementsOf(model),
      targets,
      // One or two characters: only the start of values, a bounded range of an index.
      { words, startOnly: onlyStopWords || letters <= SEARCH_MIN_CHARS },
      {
        includeDiscontinued: request.includeDiscontinued ?? false,
        asOf,
        perTypeLimit,
        page: request.perType ? { kind: "perType", size } : { kind: "page", offset, size },
      },
      callerCheck,
    ),
  );
  return answerOf(rows, targets, words, perTypeLimit);
}

const STATEMENTS = new WeakMap<Model, SearchStatements>();

/** The search statements built for a model's types (searchRows). */
function statementsOf(model: Model): SearchStatements {
  let statements = STATEMENTS.get(model);
  if (statements === undefined) {
    statements = new Map();
    STATEMENTS.set(model, statements);
  }
  return statements;
}

const SEARCHABLE_TABLES = new WeakMap<Model, TableName[]>();

/** The tables of every type with a searchable attribute, worked out once per model. */
function searchableTables(model: Model): TableName[] {
  let tables = SEARCHABLE_TABLES.get(model);
  if (tables === undefined) {
    tables = model.contexts.flatMap((context) =>
      context.entityTypes
        .filter((type) => type.attributes.some((a) => a.searchable))
        .map((type) => ({ schema: context.schema, name: type.name })),
    );
    SEARCHABLE_TABLES.set(model, tables);
  }
  return tables;
}

/** The readable types with searchable attributes, narrowed to what the request asks for. */
export function searchTargets(
  model: Model,
  user: CurrentUser,
  request: Pick<SearchRequest, "contexts" | "types" | "kinds">,
): Omit<SearchTarget, "small">[] {
  const kinds = new Set(request.kinds ?? SEARCH_KINDS);
  const types = request.types === undefined ? undefined : new Set(request.types);
  const targets: Omit<SearchTarget, "small">[] = [];
  for (const context of model.contexts) {
    if (request.contexts !== undefined && !request.contexts.includes(context.name)) continue;
    const rights = rightsOfRoles(context, user.roles);
    for (const type of context.entityTypes) {
      if (!rights.flagsOf(type.name).canread) continue;
      if (types !== undefined && !types.has(`${context.name}/${type.name}`)) continue;
      const attributes = type.attributes
        .filter((a) => a.searchable)
        .map((attribute) => ({ attribute, class: classOf(type, attribute.name) }))
        .filter((a) => kinds.has(CLASS_KIND[a.class]));
      if (attributes.length > 0) targets.push({ context, type, attributes });
    }
  }
  return targets;
}

function classOf(type: EntityType, name: string): AttributeClass {
  if (type.attributes.some((a) => a.name === name && a.identity)) return KEY;
  return type.label.includes(`{${name}}`) ? LABEL : OTHER;
}

function answerOf(
  rows: readonly SearchRow[],
  targets: readonly SearchTarget[],
  words: readonly string[],
  perTypeLimit: number,
): SearchResult {
  const targetOf = new Map(targets.map((t) => [`${t.context.name}/${t.type.name}`, t]));
  const groups: SearchGroup[] = [];
  const hits: SearchHit[] = [];
  for (const row of rows) {
    const target = targetOf.get(`${row.context}/${row.entity_type}`);
    if (!target) continue;
    const names = {
      context: row.context,
      contextUiName: target.context.uiName,
      entityType: row.entity_type,
      entityTypeUiName: target.type.uiName,
    };
    if (row.type_rank === 1)
      groups.push({ ...names, count: row.type_count, more: row.type_count >= perTypeLimit });
    if (!row.in_page) continue;
    const attribute = target.type.attributes.find((a) => a.name === row.attribute);
    const value = shownPart(row.value ?? "", words);
    hits.push({
      ...names,
      entityKeyID: row.entity_key_id,
      label: row.label,
      attribute: row.attribute,
      attributeUiName: attribute?.uiName ?? row.attribute,
      value,
      highlights: highlightsOf(value, words),
      kind: CLASS_KIND[row.class],
      match: matchOf(row.quality),
      discontinued: row.is_deleted,
    });
  }
  const total = groups.reduce((sum, g) => sum + g.count, 0);
  return { words: [...words], hits, groups, total, more: groups.some((g) => g.more) };
}

function matchOf(quality: number): SearchMatch {
  if (quality <= QUALITY.words) return "whole";
  return quality <= QUALITY.wordStarts ? "prefix" : "similar";
}

/** A long value cut to about VALUE_SHOWN characters, starting a little before its first match. */
function shownPart(value: string, words: readonly string[]): string {
  if (value.length <= VALUE_SHOWN) return value;
  const first = highlightsOf(value, words)[0]?.[0] ?? 0;
  const start = Math.max(0, Math.min(first - 40, value.length - VALUE_SHOWN));
  const cut = value.slice(start, start + VALUE_SHOWN);
  return `${start > 0 ? "…" : ""}${cut}${start + VALUE_SHOWN < value.length ? "…" : ""}`;
}
