import type { Db } from "../db/connection.ts";
import { historyNameOf } from "../model/sync/desired.ts";
import { dropIndexesForWrite, MIN_BULK_ROWS } from "../records/index-rebuild.ts";
import type { IngestInput } from "./ingest-input.ts";

/**
 * Drops the indexes of the type's history (none of them unique) for an ingest that replaces about
 * `versions` record versions, when the history holds no more rows than that (dropIndexesForWrite):
 * each replaced version is then copied there without its nine index entries, which were about a
 * third of an applied change's cost, and the indexes are built once after the commit. Answers
 * their definitions, for the caller to build then. Until the commit, reads of the type as of a
 * past moment wait.
 */
export async function lightenHistory(
  tx: Db,
  { context, type }: Pick<IngestInput, "context" | "type">,
  versions: number,
): Promise<string[]> {
  if (versions < MIN_BULK_ROWS) return [];
  const history = historyNameOf(type.name);
  const dropped = await dropIndexesForWrite(tx, context.schema, history, versions);
  return dropped.map((index) => index.definition);
}
