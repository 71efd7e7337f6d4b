import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openTestDatabase } from "../../testing/test-database.ts";
import type { Database } from "../connection.ts";
import { migrateToLatest } from "../migrate.ts";
import { FOLD_FROM, FOLD_TO } from "./018-search-fold.ts";

// Migrations 021 and 022 rewrite app.search_fold for speed over indexes built with migration 018's:
// it must answer exactly what that one did, for every character and for texts mixing them.

let database: Database;
let db: Kysely<unknown>;
beforeAll(async () => {
  database = await openTestDatabase();
  db = database.db as unknown as Kysely<unknown>;
  await migrateToLatest(db);
  const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;
  await sql
    .raw(`create function app.search_fold_018(value text) returns text
    language sql immutable strict
    return ' ' || translate(value, ${literal(FOLD_FROM)}, ${literal(FOLD_TO)})`)
    .execute(db);
});
afterAll(() => database.close());

it("folds every character, alone and among others, as migration 018's fold did", async () => {
  const { rows } = await sql<{ text: string }>`
    with points as (
      select p, chr(p) as c from generate_series(1, 1114111) p where p not between 55296 and 57343),
    texts as (
      select c as text from points
      -- Among others: every character of the table and its neighbours lie below U+3000.
      union all select 'Ab-' || c || ' É.' from points where p < 12288
      union all select c || 'x_Y' from points where p < 12288)
    select text from texts where app.search_fold(text) is distinct from app.search_fold_018(text)
    limit 5`.execute(db);
  expect(rows).toEqual([]);
  const { rows: sample } = await sql<{ folded: string }>`
    select app.search_fold(${"Ærø, CŒUR d'été\t[x]^-\\"}) as folded`.execute(db);
  expect(sample[0].folded).toBe(" Æro  cŒur d ete  x    ");
}, 60_000);
