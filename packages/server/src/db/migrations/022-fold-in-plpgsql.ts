import { type Kysely, sql } from "kysely";
import { FOLD_EXPRESSION } from "./021-faster-fold.ts";

/**
 * `app.search_fold` and `app.search_start` again, answering exactly what they did (the indexes
 * built over them stay right), in PL/pgSQL instead of SQL. A strict SQL function whose body holds
 * a CASE is never inlined, so each place a statement calls it planned its body on the first call:
 * about 60 microseconds, paid some hundred times by a search statement that looks at every
 * searchable attribute, over half of a short query's time. PL/pgSQL compiles a function once per
 * connection, and its calls cost less too (about 1 microsecond a row instead of 1.7, on every
 * search index write). Inlining instead (the SQL function without `strict`) would also have made
 * the fold look free to the planner, which then chose to read a whole table rather than its
 * trigram index for a rare word (docs/decisions.md, The search box).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`create or replace function app.search_fold(value text) returns text
    language plpgsql immutable strict parallel safe
    as $fold$ begin return ${FOLD_EXPRESSION}; end $fold$`)
    .execute(db);
  await sql`create or replace function app.search_start(value text) returns text
    language plpgsql immutable strict parallel safe
    as $start$ begin return left(app.search_fold(value), 64); end $start$`.execute(db);
}
