import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadModel } from "../model/load-model.ts";
import type { Model } from "../model/model.ts";
import { GENERATORS } from "../records/generators.ts";
import { createTestApp, REPO_ROOT, type TestApp } from "../testing/test-app.ts";
import { queryWords } from "./fold.ts";
import {
  type AttributeClass,
  KEY,
  LABEL,
  OTHER,
  type SearchScope,
  searchRows,
} from "./search.repository.ts";
import {
  SMALL_TABLE_BYTES,
  type SmallRead,
  smallTables,
  WHOLE_TABLE_BYTES,
} from "./small-tables.ts";

let t: TestApp;
let model: Model;

beforeAll(async () => {
  t = await createTestApp();
  model = await loadModel(path.join(REPO_ROOT, "model"), new Set(GENERATORS.keys()));
});
afterAll(() => t.close());

/** The reference data's type with its key, label and other searchable attributes. */
function target(typeName: string, small: SmallRead | undefined) {
  const context = model.contexts.find((c) => c.name === "reference");
  const type = context?.entityTypes.find((e) => e.name === typeName);
  if (!context || !type) throw new Error(`no reference type ${typeName}`);
  const classOf = (name: string): AttributeClass =>
    type.attributes.some((a) => a.name === name && a.identity)
      ? KEY
      : type.label.includes(`{${name}}`)
        ? LABEL
        : OTHER;
  const attributes = type.attributes
    .filter((a) => a.searchable)
    .map((attribute) => ({ attribute, class: classOf(attribute.name) }));
  return { context, type, attributes, small };
}

describe("a small table read with the others", () => {
  it("finds, scanned or through its indexes at once, what the looks find, ranked the same", async () => {
    // Every match, so that no look stops at its limit: both ways must then answer the same.
    const scope = (includeDiscontinued: boolean): SearchScope => ({
      includeDiscontinued,
      asOf: undefined,
      perTypeLimit: 1_000,
      page: { kind: "page", offset: 0, size: 1_000 },
    });
    await sql`update ctx_reference.country set is_deleted = true where iso2 in ('FR', 'DE')`.execute(
      t.database.db,
    );
    // Starts of values and of words, whole words, typos; found in each, and one found in neither.
    const queries = {
      country: ["fr", "de", "united st", "herzeg", "argentnia", "and", "kingdom"],
      currency: ["eu", "euro", "dollar", "dollars", "sw", "zealand"],
    };
    for (const [typeName, asked] of Object.entries(queries))
      for (const query of [...asked, "zz"])
        for (const discontinued of [false, true]) {
          const { words, onlyStopWords } = queryWords(query);
          const asked = { words, startOnly: onlyStopWords || words.join("").length <= 2 };
          const rows = (small: SmallRead | undefined) =>
            searchRows(
              t.database.db,
              new Map(),
              [target(typeName, small)],
              asked,
              scope(discontinued),
            );
          const looked = await rows(undefined);
          const scanned = await rows("scan");
          expect(scanned, `${typeName} '${query}' scanned`).toEqual(looked);
          expect(await rows("indexes"), `${typeName} '${query}' indexed`).toEqual(looked);
          if (query !== "zz") expect(looked.length, `${typeName} '${query}'`).toBeGreaterThan(0);
        }
  });

  it("reads several small types together, each its own best up to the limit", async () => {
    const asked = (query: string) => {
      const { words, onlyStopWords } = queryWords(query);
      return { words, startOnly: onlyStopWords || words.join("").length <= 2 };
    };
    const scope = (perTypeLimit: number): SearchScope => ({
      includeDiscontinued: false,
      asOf: undefined,
      perTypeLimit,
      page: { kind: "page", offset: 0, size: 1_000 },
    });
    const rows = (small: [SmallRead?, SmallRead?], query: string, limit: number) =>
      searchRows(
        t.database.db,
        new Map(),
        [target("country", small[0]), target("currency", small[1])],
        asked(query),
        scope(limit),
      );
    for (const query of ["an", "dollar", "republic", "zz"]) {
      const looked = await rows([], query, 1_000);
      expect(await rows(["scan", "scan"], query, 1_000), query).toEqual(looked);
      expect(await rows(["indexes", "scan"], query, 1_000), query).toEqual(looked);
      expect(await rows(["indexes", "indexes"], query, 1_000), query).toEqual(looked);
    }
    // With a limit of two, each type keeps its two best hits of the unlimited answer.
    const all = await rows(["scan", "indexes"], "un", 1_000);
    const limited = await rows(["scan", "indexes"], "un", 2);
    const byType = (found: typeof all) =>
      ["country", "currency"].map((type) =>
        found
          .filter((r) => r.entity_type === type)
          .sort((a, b) => a.type_rank - b.type_rank)
          .map((r) => r.entity_key_id),
      );
    const [countries, currencies] = byType(all);
    expect(countries.length).toBeGreaterThan(2);
    expect(currencies.length).toBeGreaterThan(2);
    expect(byType(limited)).toEqual([countries.slice(0, 2), currencies.slice(0, 2)]);
    expect(limited.every((r) => r.type_count === 2)).toBe(true);
  });

  it("knows the small tables by their size, read again after a second", async () => {
    await sql`create table public.search_size_probe (note text)`.execute(t.database.db);
    const probe = { schema: "public", name: "search_size_probe" };
    const country = { schema: "ctx_reference", name: "country" };
    const dataelement = { schema: "ctx_data_dictionary", name: "dataelement" };
    const owner = {};
    const small = async () =>
      Object.fromEntries(await smallTables(owner, t.database.db, [probe, country, dataelement]));
    const notes = (bytes: number) =>
      sql`insert into public.search_size_probe
        select repeat('x', 100) from generate_series(1, ${Math.ceil(bytes / 100)})`.execute(
        t.database.db,
      );
    // The countries fill some pages; the empty data elements' table has none.
    const others = {
      "ctx_reference.country": "indexes",
      "ctx_data_dictionary.dataelement": "scan",
    };
    expect(await small()).toEqual({ "public.search_size_probe": "scan", ...others });
    // Three pages of notes: scanned as read a moment ago, read through indexes once read again.
    await notes(3 * WHOLE_TABLE_BYTES);
    expect(await small()).toEqual({ "public.search_size_probe": "scan", ...others });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await small()).toEqual({ "public.search_size_probe": "indexes", ...others });
    // Past sixteen pages: looked up.
    await notes(SMALL_TABLE_BYTES);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await small()).toEqual(others);
  });
});
