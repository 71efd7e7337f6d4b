import { type Kysely, sql } from "kysely";
import { sqlState } from "../../db/pg-errors.ts";
import type { Model } from "../model.ts";
import { desiredState } from "./desired.ts";
import { introspect } from "./introspect.ts";
import { planSync, type SyncAction } from "./plan.ts";

/** The start was refused because the model asks for changes that lose data. */
export class DestructiveModelChangeError extends Error {
  constructor(readonly actions: SyncAction[]) {
    super(
      "The model asks for changes that lose data; start with --allow-destructive-model-changes to apply them:\n  " +
        actions.map((a) => a.description).join("\n  "),
    );
  }
}

// Serialises schema syncs of several instances starting at once on one database.
const SYNC_LOCK_KEY = 4_211_001;

/**
 * How a sync gives way to long writes: each statement waits at most `lockWait` for a table's lock,
 * then the sync rolls back, pauses `pauseMs` and tries again, `attempts` times in all.
 */
export interface SyncPatience {
  lockWait: string;
  pauseMs: number;
  attempts: number;
}

/** Half a second per try, for about ten minutes. */
const PATIENCE: SyncPatience = { lockWait: "500ms", pauseMs: 1_000, attempts: 400 };

/** lock_not_available: a statement gave up waiting for a lock. */
const LOCK_TIMEOUT = "55P03";

/**
 * Brings the context schemas in line with the model in one transaction; answers the actions it ran.
 * A table being written for a long time (an upload written while its file is read holds its type's
 * table for seconds) is not waited for in one go: an `alter table` waiting for it would hold up
 * every reader of the table behind it. The sync gives way instead and tries again (`patience`).
 */
export async function syncSchema(
  db: Kysely<unknown>,
  model: Model,
  options: { allowDestructive: boolean },
  patience: SyncPatience = PATIENCE,
): Promise<SyncAction[]> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await syncOnce(db, model, options, patience.lockWait);
    } catch (error) {
      const waited = [error, (error as Error).cause].some((e) => sqlState(e) === LOCK_TIMEOUT);
      if (!waited || attempt >= patience.attempts) throw error;
      await new Promise((resolve) => setTimeout(resolve, patience.pauseMs));
    }
  }
}

async function syncOnce(
  db: Kysely<unknown>,
  model: Model,
  options: { allowDestructive: boolean },
  lockWait: string,
): Promise<SyncAction[]> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${SYNC_LOCK_KEY})`.execute(tx);
    await sql`select set_config('lock_timeout', ${lockWait}, true)`.execute(tx);
    const actions = planSync(desiredState(model), await introspect(tx));
    const destructive = actions.filter((a) => a.destructive);
    if (destructive.length > 0 && !options.allowDestructive)
      throw new DestructiveModelChangeError(destructive);
    for (const action of actions) {
      for (const statement of action.sql) {
        try {
          await sql.raw(statement).execute(tx);
        } catch (error) {
          throw new Error(
            `Model sync failed at '${action.description}': ${(error as Error).message}`,
            { cause: error },
          );
        }
      }
    }
    return actions;
  });
}
