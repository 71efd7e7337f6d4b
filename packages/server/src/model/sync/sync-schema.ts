import { type Kysely, sql } from "kysely";
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

/** Brings the context schemas in line with the model in one transaction; answers the actions it ran. */
export async function syncSchema(
  db: Kysely<unknown>,
  model: Model,
  options: { allowDestructive: boolean },
): Promise<SyncAction[]> {
  return db.transaction().execute(async (tx) => {
    await sql`select pg_advisory_xact_lock(${SYNC_LOCK_KEY})`.execute(tx);
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
          );
        }
      }
    }
    return actions;
  });
}
