import type { Db } from "../db/connection.ts";
import { buildIndexes, mergePendingEntries } from "../records/index-rebuild.ts";
import type { IngestInput } from "./ingest-input.ts";

/** What a committed ingest leaves to do: the work of stage 7. */
export class LaterWork {
  /** Definitions of the non-unique indexes its bulk writes dropped (the records' or the history's). */
  readonly indexes: string[] = [];
  /** Whether its trigram indexes gathered their new entries in pending lists (gatherPendingEntries). */
  mergePending = false;
}

/**
 * Stage 7 of the ingest, after the commit: builds the indexes its bulk writes left out, several at
 * once (buildIndexes), and merges the trigram entries left pending. Handed to the input's
 * afterCommit when it takes it, so the answer does not wait, else run and awaited. The records
 * are stored and readable meanwhile. (The notifications of an upload were queued in its
 * transaction, beforeCommit; the notifications' sender mails them once they are committed.)
 */
export async function afterCommit(db: Db, input: IngestInput, later: LaterWork): Promise<void> {
  if (later.indexes.length === 0 && !later.mergePending) return;
  const work = async () => {
    try {
      await buildIndexes(db, later.indexes);
    } finally {
      if (later.mergePending) await mergePendingEntries(db, input.context.schema, input.type.name);
    }
  };
  if (input.afterCommit) input.afterCommit(work);
  else await work();
}
