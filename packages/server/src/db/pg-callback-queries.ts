import pg from "pg";

type Query = (config: unknown, values?: unknown, callback?: unknown) => unknown;
type Callback = (error: Error | null, result: pg.QueryResult) => void;

const pgQuery = pg.Client.prototype.query as unknown as Query;

/** pg's `Client.query`, its promise form run through its callback form (see CallbackQueryClient). */
function callbackQuery(this: pg.Client, config: unknown, values?: unknown, callback?: unknown) {
  const submittable =
    config !== null &&
    typeof config === "object" &&
    typeof (config as { submit?: unknown }).submit === "function";
  if (callback !== undefined || typeof values === "function" || submittable || config == null)
    return pgQuery.call(this, config, values, callback);
  return new Promise<pg.QueryResult>((resolve, reject) => {
    const done: Callback = (error, result) => (error ? reject(error) : resolve(result));
    pgQuery.call(this, config, values, done);
  }).catch((error: Error) => {
    Error.captureStackTrace(error);
    throw error;
  });
}

/**
 * The pool's client: pg's promise form of `query` (the one Kysely calls) runs through its callback
 * form.
 *
 * A pg Query made without a callback (the promise form sets one on it afterwards) keeps the rows of
 * every result alive across young-generation collections: with pg 8.23 on Node 20, reading
 * 1,000,000 rows in keyset chunks of 1,000 promoted all of them to the old generation (4-18 MB per
 * scavenge), which then grew by ~100 MB between full collections. The same loop with the callback
 * given to the Query from the start promotes almost nothing (docs/decisions.md, "Large reads keep
 * no rows"). Submittables (COPY streams) and calls that bring their own callback are untouched;
 * errors are rejected with the caller's stack, as pg's promise form does.
 */
export class CallbackQueryClient extends pg.Client {}
(CallbackQueryClient.prototype as unknown as { query: Query }).query = callbackQuery;
