import { CompiledQuery, type RawBuilder, sql } from "kysely";
import { asCaller, confirmedRows } from "../auth/caller-check.ts";
import type { Db } from "../db/connection.ts";
import { readViewAt } from "../history/as-of-sql.ts";
import type { Attribute, ContextModel, EntityType } from "../model/model.ts";
import { viewNameOf } from "../model/sync/desired.ts";
import { labelSql } from "../records/label-sql.ts";
import type { SmallRead } from "./small-tables.ts";

/** Where an attribute stands in the ranking: the key first, then the label, then other texts. */
export const KEY = 0;
export const LABEL = 1;
export const OTHER = 2;
export type AttributeClass = typeof KEY | typeof LABEL | typeof OTHER;

/** A readable type and the searchable attributes asked for, each with its class. */
export interface SearchTarget {
  context: ContextModel;
  type: EntityType;
  attributes: readonly { attribute: Attribute; class: AttributeClass }[];
  /** How its table, if small (small-tables.ts), is read with the other small ones instead of looked up. */
  small: SmallRead | undefined;
}

/** What the words are searched as (fold.ts's queryWords). */
export interface SearchWords {
  words: readonly string[];
  /** Only the start of values (a query of stop words, or of one or two characters). */
  startOnly: boolean;
}

export interface SearchScope {
  includeDiscontinued: boolean;
  asOf: string | undefined;
  /** At most this many matches of each type are found (and counted). */
  perTypeLimit: number;
  /** The hits answered: a page of all, or the first of each type. */
  page: { kind: "page"; offset: number; size: number } | { kind: "perType"; size: number };
}

/**
 * How whole a match is, best first: the whole value, whole words, the value's start, words'
 * starts, similar words (a typo).
 */
export const QUALITY = { value: 0, words: 1, start: 2, wordStarts: 3, similar: 4 } as const;

export interface SearchRow {
  context: string;
  entity_type: string;
  entity_key_id: number;
  attribute: string;
  class: AttributeClass;
  quality: number;
  label: string;
  value: string;
  is_deleted: boolean;
  /** The matches found of its type (at most perTypeLimit). */
  type_count: number;
  /** Its place among its type's matches, from 1. */
  type_rank: number;
  /** Whether it is one of the hits answered (else it only carries its type's count). */
  in_page: boolean;
}

/** The compiled statements of one model, by shape (searchRows). */
export type SearchStatements = Map<string, CompiledQuery<SearchRow>>;
/** Shapes kept compiled per model; beyond it they are all forgotten and built again as asked. */
const MAX_SHAPES = 200;

/** What the query gives a statement of its shape: its words, and the page asked for. */
interface QueryValues {
  words: readonly string[];
  phrase: string;
  /** startBounds of the phrase's start. */
  from: string;
  to: string;
  /** startBounds of the phrase's first TYPO_MIN_CHARS - 1 characters. */
  typoFrom: string;
  typoTo: string;
  page: SearchScope["page"];
  /** The values of the caller's check (CallerCheck), in the order of its text's placeholders. */
  check: readonly unknown[];
}

/** A parameter of a shape's statement whose value each query gives. */
class QueryValue {
  constructor(
    /** What it is: the statement passes each one once, however many places use it. */
    readonly key: string,
    readonly of: (query: QueryValues) => unknown,
  ) {}
}
const value = (key: string, of: (query: QueryValues) => unknown) => sql`${new QueryValue(key, of)}`;
/** The LIKE pattern of a folded value starting with the phrase. */
const phraseStart = () => value("phraseStart", (q) => ` ${q.phrase}%`);
/** The LIKE pattern of a folded value with a word starting with the query's word at `i`. */
const wordStart = (i: number) => value(`wordStart${i}`, (q) => `% ${q.words[i]}%`);

/**
 * Typos are looked for only in words of this many letters: shorter ones, and codes of few letters
 * ('it000123'), are too alike to tell apart.
 */
export const TYPO_MIN_CHARS = 5;
/** Inner words are looked for only from this many characters (a trigram): shorter ones match most texts. */
export const INNER_MIN_CHARS = 3;
/**
 * What of a word the inner-words look asks the trigram GIN for: a code's digits and what follows
 * them when they hold two trigrams ('it000123': '000123'; one alone, as '12c' of 'ab12c', is in
 * too many values to check them all), else the whole word. A code's letters are
 * the prefix its siblings share: `it0` is in each of a million codes 'IT0000001'..., and reading
 * its posting list for every candidate took 6 ms where the digits alone take 0.4; the whole word
 * is still checked on the rows found.
 */
export function indexedPart(word: string): string {
  const code = /^\p{L}+(\p{N}.*)$/u.exec(word);
  return code && [...code[1]].length >= INNER_MIN_CHARS + 1 ? code[1] : word;
}

/** The values the typo look's first, bounded look checks: those nearest its start in the btree. */
const TYPO_START_ROWS = 50;

/**
 * The best matches of the query in the targets, set-based in one statement. The small tables are
 * read together (smallTypesHits). Otherwise, for each searchable attribute, bounded looks, each through an
 * index over the folded value (migration 018, model/sync/desired.ts): the values that start with
 * the phrase (the btree, in its order, so the first found are the closest), then the values whose
 * words start with each word (the trigram GIN), then the values with a word similar to the phrase
 * (`<%`, pg_trgm's word similarity): first among the values nearest the phrase's start in the
 * btree, then through the GIN; each look after the starts only while those before it left room
 * (gateOf). A record counts once, by its best match; the hits are ranked by how whole the match
 * is, then key before label before other texts.
 *
 * The words are parameters, so one text serves every query of the same shape (types, number of
 * words, looks): it is built once (`statements`), a connection keeps it prepared
 * (db/statement-cache.ts) and PostgreSQL plans it once, where building and planning a new text
 * took most of a query's time (docs/performance.md). A plan made for any words cannot read a LIKE
 * pattern's prefix, so the start look names its btree range by both bounds (startBounds).
 */
export async function searchRows(
  db: Db,
  statements: SearchStatements,
  targets: readonly SearchTarget[],
  query: SearchWords,
  scope: SearchScope,
  callerCheck?: RawBuilder<boolean>,
): Promise<SearchRow[]> {
  if (targets.length === 0 || query.words.length === 0) return [];
  // The check's text is the same for every caller of a kind (session or token): its values are
  // the statement's parameters, as the words are.
  const check = callerCheck?.compile(db);
  const phrase = query.words.join(" ");
  const longest = Math.max(...query.words.map((w) => [...w].length));
  const mostLetters = Math.max(...query.words.map((w) => w.match(/\p{L}/gu)?.length ?? 0));
  // What the start's btree holds of a value: the first 64 characters (code points) folded.
  const spaced = [...` ${phrase}`];
  const shape: SearchShape = {
    words: query.words.length,
    trigramWords: query.words.flatMap((w, i) => ([...w].length >= INNER_MIN_CHARS ? [i] : [])),
    inner: !query.startOnly && longest >= INNER_MIN_CHARS,
    typo: !query.startOnly && mostLetters >= TYPO_MIN_CHARS,
    startCut: spaced.length > START_CHARS,
  };
  // A past moment's statement names the moment: it is built for the one query.
  const key =
    scope.asOf === undefined
      ? JSON.stringify([
          shape,
          scope.includeDiscontinued,
          scope.perTypeLimit,
          scope.page.kind,
          targets.map((t) => [
            t.context.name,
            t.type.name,
            t.small ?? null,
            t.attributes.map((a) => [a.attribute.name, a.class]),
          ]),
          check?.sql ?? null,
        ])
      : undefined;
  let statement = key === undefined ? undefined : statements.get(key);
  if (statement === undefined) {
    statement = withSharedParameters(
      searchStatement(targets, shape, scope, check?.sql).compile(db),
    );
    if (key !== undefined) {
      if (statements.size >= MAX_SHAPES) statements.clear();
      statements.set(key, statement);
    }
  }
  const [from, to] = startBounds(spaced.slice(0, START_CHARS).join(""));
  const [typoFrom, typoTo] = startBounds(spaced.slice(0, TYPO_MIN_CHARS).join(""));
  const values: QueryValues = {
    words: query.words,
    phrase,
    from,
    to,
    typoFrom,
    typoTo,
    page: scope.page,
    check: check?.parameters ?? [],
  };
  const parameters = statement.parameters.map((p) => (p instanceof QueryValue ? p.of(values) : p));
  const { rows } = await db.executeQuery<SearchRow>(CompiledQuery.raw(statement.sql, parameters));
  return check ? confirmedRows(rows) : rows;
}

/** What a search statement's text depends on, beside its targets and scope. */
interface SearchShape {
  words: number;
  /** The places of the words with a trigram (INNER_MIN_CHARS), which the inner-words look reads its GIN by. */
  trigramWords: readonly number[];
  /** The inner-words look runs. */
  inner: boolean;
  /** The similar-words look runs. */
  typo: boolean;
  /** The phrase is longer than the start's btree holds. */
  startCut: boolean;
}

/** What the start's btree holds of a value (app.search_start): its first 64 characters folded. */
const START_CHARS = 64;

/** The statement of searchRows for a shape, the query's values in it as QueryValue parameters. */
function searchStatement(
  targets: readonly SearchTarget[],
  shape: SearchShape,
  scope: SearchScope,
  checkText: string | undefined,
): RawBuilder<SearchRow> {
  // A literal: a plan made for any limit would take it for a tenth of the rows.
  const limit = sql.lit(scope.perTypeLimit);
  const ctes: RawBuilder<unknown>[] = [];
  const typeHits: RawBuilder<unknown>[] = [];

  const live = scope.includeDiscontinued
    ? sql`not t.is_pending_new`
    : sql`not t.is_pending_new and not t.is_deleted`;
  // A past moment's versions are always looked up.
  const readTogether = (target: SearchTarget) =>
    target.small !== undefined && scope.asOf === undefined;
  targets.forEach((target, ti) => {
    if (readTogether(target)) return;
    const relation = sourceOf(target, scope.asOf);
    // Today's values are looked up in the table itself: its read view would add its formulas to
    // every look's parsing and planning, the larger part of a query's time (docs/performance.md).
    const scanned =
      scope.asOf === undefined
        ? sql.table(`${target.context.schema}.${target.type.name}`)
        : relation;
    const read = { target, scanned, live, shape, limit };
    const cte = (name: string, body: RawBuilder<unknown>) => {
      const named = sql.raw(`${name}_${ti}`);
      ctes.push(sql`${named} as materialized (${body})`);
      return named;
    };
    const best = sql.raw(`b_${ti}`);
    ctes.push(sql`${best} as (${lookedUp(read, cte)})`);
    const matchedValue = sql.join(
      target.attributes.map(
        ({ attribute }) =>
          sql`when ${sql.lit(attribute.name)} then ${sql.ref(`v.${attribute.name}`)}::text`,
      ),
      sql` `,
    );
    typeHits.push(sql`select ${target.context.name}::text as context,
        ${target.type.name}::text as entity_type, b.id as entity_key_id, b.attribute, b.class,
        b.quality, ${labelSql(target.type, "v")} as label, (case b.attribute ${matchedValue} end) as value,
        v.is_deleted
      from ${best} b ${byId(relation, "v", sql`b.id`)}`);
  });
  const small = targets.filter(readTogether);
  if (small.length > 0) typeHits.push(smallTypesHits(small, shape, live, limit));

  const order = rankOf(sql`h`);
  const offset = ({ page }: QueryValues) => (page.kind === "page" ? page.offset : 0);
  const inPage =
    scope.page.kind === "perType"
      ? sql`r.type_rank <= ${value("size", ({ page }) => page.size)}`
      : sql`r.position > ${value("offset", offset)} and r.position <= ${value("end", (q) => offset(q) + q.page.size)}`;
  // The box shows each type's hits together, its types in the order of their best hits.
  const groupFirst =
    scope.page.kind === "perType"
      ? sql`min(r.position) over (partition by r.context, r.entity_type), `
      : sql``;
  ctes.push(sql`hits as (${sql.join(typeHits, sql` union all `)})`);
  const statement = sql<SearchRow>`with ${sql.join(ctes, sql`, `)},
    ranked as (
      select h.*, count(*) over (partition by h.context, h.entity_type)::int as type_count,
        row_number() over (partition by h.context, h.entity_type order by ${order})::int as type_rank,
        row_number() over (order by ${order})::int as position
      from hits h)
    select r.context, r.entity_type, r.entity_key_id::int as entity_key_id, r.attribute, r.class,
      r.quality, r.label, r.value, r.is_deleted, r.type_count, r.type_rank, ${inPage} as in_page
    from ranked r
    where (${inPage} or r.type_rank = 1) ${checkText === undefined ? sql`` : sql`and exists (select from caller)`}
    order by ${groupFirst}r.position`;
  return checkText === undefined ? statement : asCaller(statement, checkOf(checkText));
}

/** A caller's check (its compiled text) with its values taken from each query's (QueryValues.check). */
function checkOf(text: string): RawBuilder<boolean> {
  const parts = text.split(/\$(\d+)/);
  return sql<boolean>`${sql.join(
    parts.map((part, i) =>
      i % 2 === 0 ? sql.raw(part) : value(`check${part}`, (q) => q.check[Number(part) - 1]),
    ),
    sql``,
  )}`;
}

/**
 * The statement with each of its values passed once: a query value by its key, a constant by
 * itself. Its looks use the words in a few hundred places; binding each place's own copy took a
 * noticeable part of a query's time on both sides of the connection. The text's only `$n` are
 * its placeholders: its literals are the model's names and numbers.
 */
function withSharedParameters(compiled: CompiledQuery<SearchRow>): CompiledQuery<SearchRow> {
  const places = new Map<string, number>();
  const parameters: unknown[] = [];
  const placeOf = compiled.parameters.map((p) => {
    const key = p instanceof QueryValue ? `query ${p.key}` : `constant ${JSON.stringify(p)}`;
    let place = places.get(key);
    if (place === undefined) {
      place = parameters.push(p);
      places.set(key, place);
    }
    return place;
  });
  const text = compiled.sql.replace(/\$(\d+)/g, (_, n: string) => `$${placeOf[Number(n) - 1]}`);
  return CompiledQuery.raw(text, parameters) as CompiledQuery<SearchRow>;
}

/** What a type's matches are read from: its table (or past versions), its live rows, the query's shape. */
interface TypeRead {
  target: SearchTarget;
  scanned: RawBuilder<unknown>;
  live: RawBuilder<unknown>;
  shape: SearchShape;
  limit: RawBuilder<unknown>;
}

/** The query's words' places. */
function wordPlaces(shape: SearchShape): number[] {
  return Array.from({ length: shape.words }, (_, i) => i);
}

/**
 * A type's matches through bounded looks, each a CTE made by `cte` (named by `name`, answering
 * the name to read it by): for each searchable attribute, in the order of their class, the values
 * that start with the phrase, then those whose words start with the words, then similar ones
 * (searchRows), each look gated by what the looks before it found (gateOf).
 */
function lookedUp(
  { target, scanned, live, shape, limit }: TypeRead,
  cte: (name: string, body: RawBuilder<unknown>) => RawBuilder<unknown>,
): RawBuilder<unknown> {
  const { inner, typo } = shape;
  const wordAt = wordPlaces(shape);
  // A phrase longer than the start's btree holds is checked on the whole folded value as well,
  // written so that no index serves the check: given the words' GIN for it, the planner
  // (misjudging how many values start so) read every one of them through both indexes and sorted
  // them, 10,000 of 400,000 columns for 'it', instead of reading the btree in order up to the limit.
  const startExact = (folded: RawBuilder<unknown>) =>
    shape.startCut ? sql`and (${folded} || '') like ${phraseStart()}` : sql``;
  const looks: Look[] = [];
  // What the looks found so far, as one CTE (`done`), up to `rolledAt`: a gate counts it and its
  // own attribute's looks after it, not once more every look before.
  let done: RawBuilder<unknown> | undefined;
  let rolledAt = 0;
  const roll = () => {
    const rolled = looks.slice(rolledAt).map((l) => l.name);
    done = cte(
      `d${looks.length}`,
      sql.join(
        (done === undefined ? rolled : [done, ...rolled]).map((l) => sql`select * from ${l}`),
        sql` union all `,
      ),
    );
    rolledAt = looks.length;
  };
  const add = (
    look: Omit<Look, "name">,
    body: (gate: RawBuilder<unknown>) => RawBuilder<unknown>,
  ) => {
    // A gated look counts what the looks of a lower class found: rolled up before its class.
    const last = looks.at(-1);
    if (look.tier !== "s" && looks.length > rolledAt && last?.class !== look.class) roll();
    const own = looks
      .slice(rolledAt)
      .filter((l) => l.attribute === look.attribute)
      .map((l) => l.name);
    const gate = gateOf(look, done === undefined ? own : [done, ...own], limit);
    looks.push({ ...look, name: cte(`${look.tier}${looks.length}`, body(gate)) });
  };
  const byClass = [...target.attributes].sort((a, b) => a.class - b.class);
  const parts = byClass.map(({ attribute, class: cls }) => {
    const col = sql.ref(`t.${attribute.name}`);
    const folded = foldedOf(attribute);
    // What a look found: its records, by which attribute, and the folded value the ranking reads
    // (searchRows's last step, once per record: computed in each look it cost as much as the look).
    const found = (exact: boolean) =>
      sql`select t.entity_key_id as id, ${sql.lit(attribute.name)}::text as attribute,
          ${sql.lit(cls)}::int as class, ${sql.lit(exact)} as exact, ${folded} as folded
        from ${scanned} t where ${live}`;
    return { look: { attribute: attribute.name, class: cls }, col, folded, found };
  });
  for (const { look, col, found, folded } of parts)
    add(
      { ...look, tier: "s" },
      () =>
        sql`${found(true)}
        and ${phraseStartRange(col)}
        ${startExact(folded)}
        order by app.search_start(${col}) using ~<~ limit ${limit}`,
    );
  roll();
  if (inner) {
    for (const { look, folded, found } of parts) {
      // A word with a trigram reads the GIN by the word alone, its start checked on the rows
      // found: the trigrams of a word's start (' it' and '  i' of 'it000123') are among the
      // longest posting lists, and reading them took most of the look's time. A shorter word
      // has no trigram but those (docs/performance.md).
      const each = wordAt.map((i) =>
        shape.trigramWords.includes(i)
          ? sql`${wordIn(folded, i)} and (${folded} || '') like ${wordStart(i)}`
          : sql`${folded} like ${wordStart(i)}`,
      );
      add(
        { ...look, tier: "w" },
        (gate) => sql`${found(true)} and ${gate} and ${sql.join(each, sql` and `)} limit ${limit}`,
      );
    }
    roll();
  }
  if (typo) {
    for (const { look, col, folded, found } of parts) {
      // First the values that start as the phrase does, up to a typo after its first letters,
      // from the start's btree: a bounded look, where the trigram GIN reads the posting lists of
      // every record holding the word it finds ('foxtrot': 50,000 records of the bench type).
      add(
        { ...look, tier: "z" },
        (gate) =>
          sql`select * from (${found(false)}
          and ${gate}
          and app.search_start(${col}) ~>=~ ${value("typoFrom", (q) => q.typoFrom)}
          and app.search_start(${col}) ~<~ ${value("typoTo", (q) => q.typoTo)}
          order by app.search_start(${col}) using ~<~ limit ${sql.lit(TYPO_START_ROWS)}) s
        where ${similarTo(sql`s.folded`)} limit ${limit}`,
      );
      add(
        { ...look, tier: "y" },
        (gate) => sql`${found(false)} and ${gate} and ${similarTo(folded)} limit ${limit}`,
      );
    }
    roll();
  }
  // Each record once, by its best match.
  return sql`select distinct on (m.id) m.id, m.attribute, m.class, ${qualitySql(sql`m.folded`, wordAt)} as quality
    from ${done} m order by m.id, 4, m.class`;
}

/**
 * The small types' hits (SearchTarget.small), read together: each of their read views read once
 * (every row, or the rows its indexes find: indexedRows), every searchable attribute matched on
 * each row, each record once by its best match, the best `limit` of each type. Looked up one by one, a type of a few rows cost a tenth of a
 * millisecond per look in the executor's start and end alone, and its own ranking and label join
 * as much again: a few milliseconds for the Data Dictionary's many types of one or two records
 * (docs/performance.md).
 */
function smallTypesHits(
  targets: readonly SearchTarget[],
  shape: SearchShape,
  live: RawBuilder<unknown>,
  limit: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const wordAt = wordPlaces(shape);
  const folded = sql`a.folded`;
  const matches = [sql`${folded} like ${phraseStart()}`];
  if (shape.inner)
    matches.push(
      sql.join(
        wordAt.map((i) => sql`${folded} like ${wordStart(i)}`),
        sql` and `,
      ),
    );
  if (shape.typo) matches.push(similarTo(folded));
  const matched = targets.map((target) => {
    const values = target.attributes.map(
      ({ attribute, class: cls }) =>
        sql`(${sql.lit(attribute.name)}::text, ${sql.lit(cls)}::int, ${foldedOf(attribute)}, ${sql.ref(`t.${attribute.name}`)}::text)`,
    );
    const found = target.small === "indexes" ? sql`and (${indexedRows(target, shape)})` : sql``;
    return sql`select ${target.context.name}::text as context, ${target.type.name}::text as entity_type,
        t.entity_key_id, a.attribute, a.class, ${qualitySql(folded, wordAt)} as quality,
        ${labelSql(target.type, "t")} as label, a.value, t.is_deleted
      from ${sourceOf(target, undefined)} t
        cross join lateral (values ${sql.join(values, sql`, `)}) a(attribute, class, folded, value)
      where ${live} ${found} and (${sql.join(matches, sql` or `)})`;
  });
  const h = sql`m`;
  return sql`select m.context, m.entity_type, m.entity_key_id, m.attribute, m.class, m.quality,
      m.label, m.value, m.is_deleted
    from (
      select m.*, row_number() over (partition by m.context, m.entity_type order by ${rankOf(h)}) as rank
      from (
        select distinct on (m.context, m.entity_type, m.entity_key_id) m.*
        from (${sql.join(matched, sql` union all `)}) m
        order by m.context, m.entity_type, m.entity_key_id, m.quality, m.class) m) m
    where m.rank <= ${limit}`;
}

/**
 * The condition by which the indexes of a small type's searchable attributes find the rows that
 * may match (SmallRead "indexes"), what the looks ask each index, joined by `or`: one bitmap of all
 * of them, unbounded, which a table of some hundreds of rows keeps small. The rows' folded values
 * are then matched as a scanned table's are.
 */
function indexedRows(target: SearchTarget, shape: SearchShape): RawBuilder<boolean> {
  const found = target.attributes.flatMap(({ attribute }) => {
    const col = sql.ref(`t.${attribute.name}`);
    const folded = foldedOf(attribute);
    const inner = shape.trigramWords.map((i) => wordIn(folded, i));
    return [
      phraseStartRange(col),
      ...(shape.inner ? [sql.join(inner, sql` and `)] : []),
      ...(shape.typo ? [similarTo(folded)] : []),
    ];
  });
  return sql<boolean>`${sql.join(
    found.map((f) => sql`(${f})`),
    sql` or `,
  )}`;
}

/** The attribute's folded start is in the start's btree range of the phrase (startBounds). */
function phraseStartRange(col: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`app.search_start(${col}) ~>=~ ${value("from", (q) => q.from)}
    and app.search_start(${col}) ~<~ ${value("to", (q) => q.to)}`;
}

/** The folded text holds what the trigram GIN is asked for of the word at `i` (indexedPart). */
function wordIn(folded: RawBuilder<unknown>, i: number): RawBuilder<boolean> {
  return sql<boolean>`${folded} like ${value(`wordIn${i}`, (q) => `%${indexedPart(q.words[i])}%`)}`;
}

/** The query's phrase is similar to a word of the folded text (pg_trgm's `<%`). */
function similarTo(folded: RawBuilder<unknown>): RawBuilder<boolean> {
  return sql<boolean>`${value("phrase", (q) => q.phrase)}::text <% ${folded}`;
}

/** The order of hits (of the relation `h`), best first. */
function rankOf(h: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`${bucketOf(sql`${h}.quality`)}, ${h}.class, ${h}.quality, length(${h}.label), ${h}.label, ${h}.context, ${h}.entity_type, ${h}.entity_key_id`;
}

/** The bucket of the ranking a match of a quality falls in: whole, prefix or similar. */
function bucketOf(quality: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`case when ${quality} <= ${sql.lit(QUALITY.words)} then 0 when ${quality} <= ${sql.lit(QUALITY.wordStarts)} then 1 else 2 end`;
}

/**
 * The btree range (text_pattern_ops: byte order, which in UTF-8 is code point order) of the texts
 * that start with `prefix`: from it, up to the prefix with its last character's successor. The
 * prefix starts with a space, so one of its characters has a successor.
 */
export function startBounds(prefix: string): [string, string] {
  const points = [...prefix];
  for (let i = points.length - 1; i >= 0; i--) {
    const next = (points[i].codePointAt(0) ?? 0) + 1;
    if (next > 0x10ffff) continue;
    // The UTF-16 surrogates are no characters; a text cannot hold one.
    const successor = String.fromCodePoint(next === 0xd800 ? 0xe000 : next);
    return [prefix, points.slice(0, i).join("") + successor];
  }
  throw new Error("A search prefix starts with a space");
}

/** The records searched: the type's read view, or its versions at a past moment. */
function sourceOf(target: SearchTarget, asOf: string | undefined): RawBuilder<unknown> {
  if (asOf !== undefined) return sql`(${readViewAt(target.context, target.type, asOf)})`;
  return sql.table(`${target.context.schema}.${viewNameOf(target.type.name)}`);
}

/**
 * The row of `relation` with entity_key_id `id`, as `alias`, read by its key's index for each match.
 * A plan made for any words takes each look for its whole limit (300 matches of the Data
 * Dictionary's data objects, say), and joined them by reading all 20,000 of them into a hash; the
 * looks find a few.
 */
function byId(relation: RawBuilder<unknown>, alias: string, id: RawBuilder<unknown>) {
  const row = sql.raw(alias);
  return sql`cross join lateral (select * from ${relation} ${row} where ${row}.entity_key_id = ${id} limit 1) ${row}`;
}

/** A look of a type's statement: the CTE of one tier over one attribute. */
interface Look {
  name: RawBuilder<unknown>;
  /** Starts, words, similar starts, similar words. */
  tier: "s" | "w" | "z" | "y";
  attribute: string;
  class: AttributeClass;
}

/**
 * Whether `look` still runs: while fewer than the limit records were found before it by its own
 * attribute's looks or by those of an attribute of a lower class (key, then label, then other
 * texts), and, for a typo look, by any look for exact matches. Counted once each: a value that
 * starts with the phrase has words that start with its words, and is similar to it, so the looks
 * find some records twice. A type's other texts are thus read only when its key and label left
 * room for them: a description's whole word, which ranks before a key's prefix, is not looked for
 * once 20 keys start so (docs/decisions.md).
 */
function gateOf(
  look: Omit<Look, "name">,
  before: readonly RawBuilder<unknown>[],
  limit: RawBuilder<unknown>,
): RawBuilder<unknown> {
  const typo = look.tier === "z" || look.tier === "y";
  const found = sql.join(
    before.map((l) => sql`select id, attribute, class, exact from ${l}`),
    sql` union all `,
  );
  return sql`(select count(distinct f.id) from (${found}) f
    where f.attribute = ${sql.lit(look.attribute)} or f.class < ${sql.lit(look.class)}
      ${typo ? sql`or f.exact` : sql``}) < ${limit}`;
}

/** The folded value (migration 018) of an attribute of the row `t`. */
function foldedOf(attribute: Attribute): RawBuilder<unknown> {
  return sql`app.search_fold(${sql.ref(`t.${attribute.name}`)})`;
}

/** QUALITY of a folded value (with its leading space) for the query's words (their places). */
function qualitySql(folded: RawBuilder<unknown>, wordAt: readonly number[]): RawBuilder<number> {
  const wordStarts = wordAt.map((i) => sql`${folded} like ${wordStart(i)}`);
  const wholeWords = wordAt.map(
    (i) => sql`(${folded} || ' ') like ${value(`wholeWord${i}`, (q) => `% ${q.words[i]} %`)}`,
  );
  return sql<number>`case
    when ${folded} = ${value("phraseValue", (q) => ` ${q.phrase}`)} then ${QUALITY.value}::int
    when ${sql.join(wholeWords, sql` and `)} then ${QUALITY.words}::int
    when ${folded} like ${phraseStart()} then ${QUALITY.start}::int
    when ${sql.join(wordStarts, sql` and `)} then ${QUALITY.wordStarts}::int
    else ${QUALITY.similar}::int end`;
}
