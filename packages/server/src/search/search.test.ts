import fs from "node:fs/promises";
import { SearchResult } from "@ledgerline/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, TEST_USER_PASSWORD, type TestApp } from "../testing/test-app.ts";
import { testModelDir, typeIn } from "../testing/test-model.ts";
import { upload, workbookOf } from "../testing/xlsx-files.ts";
import { indexedPart, startBounds } from "./search.repository.ts";

let t: TestApp;
let modelDir: string;
let steward: string;
let currencyReader: string;

beforeAll(async () => {
  modelDir = await testModelDir({
    "reference.yaml": (doc) => {
      (doc.roles as Record<string, unknown>[]).push({
        name: "currency_reader",
        uiname: "Currency reader",
        grants: { currency: ["read"] },
      });
      // A text that is neither key, label nor filter, made searchable by the model.
      typeIn(doc, "currency").attributes.push({
        name: "note",
        uiName: "Note",
        dataType: "String",
        nullable: true,
        searchable: true,
      });
    },
  });
  t = await createTestApp({ env: { MODEL_DIR: modelDir } });
  await t.createUser({ username: "steward", roles: [{ context: "reference", role: "steward" }] });
  await t.createUser({
    username: "reader",
    roles: [{ context: "reference", role: "currency_reader" }],
  });
  await t.createUser({ username: "outsider", roles: [] });
  steward = await t.login("steward", TEST_USER_PASSWORD);
  currencyReader = await t.login("reader", TEST_USER_PASSWORD);
});
afterAll(async () => {
  await t.close();
  await fs.rm(modelDir, { recursive: true, force: true });
});

async function search(body: object, credential = steward): Promise<SearchResult> {
  const res = await t.post("/api/search", body, credential);
  expect(res.statusCode, res.body).toBe(200);
  return SearchResult.parse(res.json());
}

const labels = (result: SearchResult) => result.hits.map((h) => h.label);

async function saveCurrency(record: object) {
  const res = await t.post(
    "/api/save",
    { context: "reference", entityType: "currency", record },
    steward,
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ entityKeyID: number }>();
}

describe("POST /api/search", () => {
  it("finds whole words and word starts, case and accents ignored, best first", async () => {
    const result = await search({ query: "ARGENT" });
    expect(labels(result)).toContain("Argentina (AR)");
    const hit = result.hits.find((h) => h.label === "Argentina (AR)");
    expect(hit).toMatchObject({
      context: "reference",
      entityType: "country",
      attribute: "name",
      kind: "label",
      match: "prefix",
      highlights: [[0, 6]],
    });
    // An inner word's start: 'Herzegovina' in 'Bosnia and Herzegovina'.
    expect(labels(await search({ query: "herzeg" }))).toContain("Bosnia and Herzegovina (BA)");
    // Accents: a saved 'Zürich' is found as 'zurich', and 'zürich' finds it too.
    await saveCurrency({ code: "ZZC", name: "Zürich Franc", minor_units: 2, active: true });
    expect(labels(await search({ query: "zurich" }))).toContain("ZZC - Zürich Franc");
    expect(labels(await search({ query: "ZÜRICH fr" }))).toContain("ZZC - Zürich Franc");
    // The key first: 'EUR' is the euro's code, whole, before any word starting so.
    const eur = await search({ query: "eur" });
    expect(eur.hits[0]).toMatchObject({ label: "EUR - Euro", kind: "key", match: "whole" });
  });

  it("tolerates a typo in a word of five letters or more", async () => {
    const result = await search({ query: "Argentnia" });
    expect(result.hits.find((h) => h.label === "Argentina (AR)")).toMatchObject({
      match: "similar",
    });
  });

  it("looks for no typo in a code of fewer than five letters", async () => {
    // 'ab12346' is as similar to 'ab12345' as a typo, but a code one digit apart is another code.
    await saveCurrency({ code: "ZA1", name: "AB12345 Coin", minor_units: 2, active: true });
    await saveCurrency({ code: "ZA2", name: "AB12346 Coin", minor_units: 2, active: true });
    const code = await search({ query: "ab12345", types: ["reference/currency"] });
    expect(labels(code)).toEqual(["ZA1 - AB12345 Coin"]);
    const word = await search({ query: "coins", types: ["reference/currency"] });
    expect(labels(word).sort()).toEqual(["ZA1 - AB12345 Coin", "ZA2 - AB12346 Coin"]);
  });

  it("finds a code inside a text, the index asked for its digits", async () => {
    await saveCurrency({ code: "ZB1", name: "Coded", note: "replaces IT0004567 from May" });
    const found = await search({ query: "it000456", types: ["reference/currency"] });
    expect(found.hits).toMatchObject([{ label: "ZB1 - Coded", kind: "other", match: "prefix" }]);
    expect(indexedPart("it000123")).toBe("000123");
    // Digits with fewer than two trigrams, or no letters before them: the whole word.
    expect(indexedPart("ab12c")).toBe("ab12c");
    expect(indexedPart("2024ab")).toBe("2024ab");
    expect(indexedPart("echo")).toBe("echo");
  });

  it("finds typos at a value's start and inside it, each record once, when exact matches are many", async () => {
    // Eleven values start with the word: the start and inner-word looks find the same eleven, so
    // the typo looks must still run and find the twelfth, a typo inside a value.
    const letters = "ABCDEFGHIJK";
    for (const letter of letters)
      await saveCurrency({
        code: `FX${letter}`,
        name: `Foxtrot ${letter}`,
        minor_units: 2,
        active: true,
      });
    await saveCurrency({ code: "FXZ", name: "Old Foxtrod Crown", minor_units: 2, active: true });
    const box = await search({ query: "foxtrot", perType: true, pageSize: 4 });
    expect(box.groups.find((g) => g.entityType === "currency")).toMatchObject({ count: 12 });
    const page = await search({ query: "foxtrot", types: ["reference/currency"], pageSize: 20 });
    expect(page.total).toBe(12);
    expect(page.hits.at(-1)).toMatchObject({ label: "FXZ - Old Foxtrod Crown", match: "similar" });
    // A typo at the end, where the start's btree finds the values: every one of them, once.
    const typo = await search({ query: "foxtrott", types: ["reference/currency"], pageSize: 20 });
    expect(typo.total).toBe(12);
    expect(new Set(typo.hits.map((h) => h.entityKeyID)).size).toBe(12);
  });

  it("answers each query its own hits when one prepared statement serves them all", async () => {
    // Queries of one shape (a word of five letters or more): on PostgreSQL a connection keeps
    // their statement prepared after a few runs, planned once for any words.
    const firsts = {
      argen: "Argentina (AR)",
      herzeg: "Bosnia and Herzegovina (BA)",
      switz: "Switzerland (CH)",
      argentnia: "Argentina (AR)",
    };
    for (let round = 0; round < 4; round++)
      for (const [query, label] of Object.entries(firsts))
        expect(labels(await search({ query, perType: true, pageSize: 4 }))[0], query).toBe(label);
  });

  it("searches an attribute the model marks searchable, and only the kinds asked for", async () => {
    await saveCurrency({ code: "ZZN", name: "Noted", note: "kept for the quarterly VAT rate" });
    const found = await search({ query: "vat rate" });
    expect(found.hits.find((h) => h.label === "ZZN - Noted")).toMatchObject({
      attribute: "note",
      kind: "other",
      match: "whole",
    });
    expect(labels(await search({ query: "vat rate", kinds: ["key", "label"] }))).not.toContain(
      "ZZN - Noted",
    );
  });

  it("shows a commit at once, never a pending change, discontinued records only on request", async () => {
    // Countries wait for approval on the web: the proposal is not found.
    const res = await t.post(
      "/api/save",
      {
        context: "reference",
        entityType: "country",
        record: { iso2: "QQ", name: "Quuxland", currency: 1, population: 5 },
      },
      steward,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(labels(await search({ query: "quuxland" }))).toEqual([]);
    const { entityKeyID } = await saveCurrency({ code: "ZZD", name: "Dropped Dollar" });
    expect(labels(await search({ query: "dropped" }))).toEqual(["ZZD - Dropped Dollar"]);
    const deleted = await t.post(
      "/api/delete",
      { context: "reference", entityType: "currency", entityKeyIds: [entityKeyID] },
      steward,
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(labels(await search({ query: "dropped" }))).toEqual([]);
    const withDiscontinued = await search({ query: "dropped", includeDiscontinued: true });
    expect(withDiscontinued.hits).toMatchObject([
      { label: "ZZD - Dropped Dollar", discontinued: true },
    ]);
  });

  it("finds an uploaded record once approved, not before", async () => {
    await t.createUser({
      username: "both",
      roles: [
        { context: "reference", role: "steward" },
        { context: "reference", role: "approver" },
      ],
    });
    const both = await t.login("both", TEST_USER_PASSWORD);
    const rows = [
      ["Code", "Name", "Minor units", "Active"],
      ["ZZU", "Uploaded Unit", 2, true],
    ];
    const pending = await upload(t, steward, await workbookOf("Currencies", rows), {
      layout: "currencies",
      deleteMissing: false,
    });
    expect(pending.statusCode, pending.body).toBe(200);
    expect(labels(await search({ query: "uploaded unit" }))).toEqual([]);
    const approved = await upload(t, both, await workbookOf("Currencies", rows), {
      layout: "currencies",
      deleteMissing: false,
      approveEverything: true,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(labels(await search({ query: "uploaded unit" }))).toEqual(["ZZU - Uploaded Unit"]);
  });

  it("answers as of a past moment", async () => {
    const before = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    await saveCurrency({ code: "ZZL", name: "Later Lira" });
    expect(labels(await search({ query: "later lira" }))).toEqual(["ZZL - Later Lira"]);
    expect(labels(await search({ query: "later lira", asOf: before }))).toEqual([]);
  });

  it("pages, groups and counts", async () => {
    const first = await search({ query: "an", pageSize: 3 });
    expect(first.hits).toHaveLength(3);
    expect(first.total).toBeGreaterThan(3);
    const second = await search({ query: "an", pageSize: 3, pageNum: 2 });
    expect(second.hits.map((h) => h.entityKeyID)).not.toEqual(first.hits.map((h) => h.entityKeyID));
    const perType = await search({ query: "b", pageSize: 2, perType: true });
    expect(perType.hits).toEqual([]);
    const box = await search({ query: "ba", pageSize: 2, perType: true });
    for (const g of box.groups)
      expect(box.hits.filter((h) => h.entityType === g.entityType).length).toBeLessThanOrEqual(2);
    // The box shows each type's hits together: a type's run of hits is never interrupted.
    const runs = box.hits
      .map((h) => `${h.context}/${h.entityType}`)
      .filter((group, i, all) => i === 0 || group !== all[i - 1]);
    expect(new Set(runs).size).toBe(runs.length);
    expect(runs.length).toBeGreaterThan(1);
  });

  it("never shows a record, count or group of a type the caller may not read", async () => {
    const result = await search({ query: "euro" }, currencyReader);
    expect(result.groups.map((g) => g.entityType)).toEqual(["currency"]);
    expect(result.hits.every((h) => h.entityType === "currency")).toBe(true);
    // Countries named 'Andorra' and so on are not counted for the currency reader.
    const countries = await search({ query: "andorra" }, currencyReader);
    expect(countries).toMatchObject({ hits: [], groups: [], total: 0 });
    const outsider = await t.login("outsider", TEST_USER_PASSWORD);
    expect(await search({ query: "euro" }, outsider)).toMatchObject({ hits: [], total: 0 });
    // An API token of read scope reads what its user may.
    const token = await t.post(
      "/api/tokens/create",
      { name: "search", scope: "read", expiresInDays: 1 },
      currencyReader,
    );
    expect(token.statusCode, token.body).toBe(200);
    const byToken = await search({ query: "andorra euro" }, `Bearer ${token.json().secret}`);
    expect(byToken.groups.every((g) => g.entityType === "currency")).toBe(true);
  });

  it("answers bad input quickly, never with an error", async () => {
    const inputs = [
      "",
      "a",
      "x".repeat(10_000),
      "%",
      "_",
      "\\",
      "'\"",
      "%_\\'",
      ".*[a-z]+(?=x)",
      "&|!:*()<->",
      "a & b | !c:* <-> (d)",
      "the of and",
      "Zürich Москва 東京 ελλάδα",
      "'; drop table app.users; --",
      "ab\u0000cd",
      "eur\u0000",
      "🙂 euro 🇪🇺",
      // Longer than the start's index holds, cut at a character outside the Basic Multilingual Plane.
      `a ${"🙂".repeat(40)} ${"🙂".repeat(40)}`,
    ];
    for (const query of inputs) {
      const started = performance.now();
      const result = await search({ query });
      expect(performance.now() - started, query.slice(0, 40)).toBeLessThan(2_000);
      expect(result.total).toBeGreaterThanOrEqual(0);
    }
    expect(await search({ query: "%" })).toMatchObject({ hits: [], words: [] });
    expect((await search({ query: "the of and" })).words).toEqual(["the", "of", "and"]);
  });
});

describe("startBounds", () => {
  it("bounds the texts starting with a prefix, in code point order", () => {
    expect(startBounds(" ab")).toEqual([" ab", " ac"]);
    expect(startBounds(" z\u{10FFFF}")).toEqual([" z\u{10FFFF}", " {"]);
    expect(startBounds(" \u{D7FF}")).toEqual([" \u{D7FF}", " \u{E000}"]);
    const [from, to] = startBounds(" é");
    const inside = [" é", " éa", " é\u{10FFFF}"];
    const outside = [" e", " ê", " f", " ", " \u{10FFFF}"];
    // The btree's order: the texts' UTF-8 bytes compared.
    const bytes = (s: string) => Buffer.from(s, "utf8");
    const within = (s: string) =>
      Buffer.compare(bytes(s), bytes(from)) >= 0 && Buffer.compare(bytes(s), bytes(to)) < 0;
    expect(inside.filter(within)).toEqual(inside);
    expect(outside.filter(within)).toEqual([]);
  });
});
