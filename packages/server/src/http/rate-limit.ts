import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import { TooManyRequestsError } from "../errors.ts";

export interface RateLimit {
  max: number;
  windowSeconds: number;
}

/**
 * Counts one call against a fixed window kept in the database (so every instance counts the same);
 * throws 429 with Retry-After past the limit. Old windows of the key are dropped on the way.
 */
export async function consumeRateLimit(db: Db, key: string, limit: RateLimit): Promise<void> {
  const { rows } = await sql<{ hits: number; retry: number }>`
    with old as (
      delete from app.rate_limits where key = ${key} and window_start < now() - make_interval(secs => ${limit.windowSeconds * 2})
    )
    insert into app.rate_limits (key, window_start, hits)
    values (${key}, to_timestamp(floor(extract(epoch from now()) / ${limit.windowSeconds}) * ${limit.windowSeconds}), 1)
    on conflict (key, window_start) do update set hits = app.rate_limits.hits + 1
    returning hits, ceil(extract(epoch from (window_start + make_interval(secs => ${limit.windowSeconds}) - now())))::int as retry`.execute(
    db,
  );
  const { hits, retry } = rows[0];
  if (hits > limit.max) {
    throw new TooManyRequestsError(
      `Too many requests of this kind; try again in ${retry} seconds`,
      Math.max(retry, 1),
    );
  }
}
