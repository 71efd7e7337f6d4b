import type { EntityQuery } from "@ledgerline/contract";
import type { ContextModel, EntityType } from "../model/model.ts";
import { buildListQuery, type ListQuery, type ListQueryOptions } from "./list-query.ts";

/** Lists kept per type: enough for the pages and filters many users ask for at once. */
const KEPT_PER_TYPE = 64;

const built = new WeakMap<EntityType, Map<string, ListQuery>>();

/**
 * The list query of a request, built once for the same request asked again (a list's first page
 * is asked by every user who opens it, and by every client that polls it). Its SQL is immutable and
 * holds every value of the request, so the same request gives the same statement; the least recently
 * asked go first. Keyset reads (exports, comparisons) are built each time.
 */
export function listQueryOf(
  context: ContextModel,
  type: EntityType,
  q: EntityQuery,
  options: ListQueryOptions,
): ListQuery {
  if (options.afterKey !== undefined || options.keyIds !== undefined)
    return buildListQuery(context, type, q, options);
  const key = `${options.callerChecked ? "checked" : "plain"} ${options.allRowsMax ?? ""} ${JSON.stringify(q)}`;
  let ofType = built.get(type);
  if (!ofType) {
    ofType = new Map();
    built.set(type, ofType);
  }
  const kept = ofType.get(key);
  if (kept) {
    ofType.delete(key);
    ofType.set(key, kept);
    return kept;
  }
  const query = buildListQuery(context, type, q, options);
  ofType.set(key, query);
  if (ofType.size > KEPT_PER_TYPE) ofType.delete(ofType.keys().next().value as string);
  return query;
}
