import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { type ApplyResult, applyEvents } from "./apply-events.ts";
import type { PendingEventRef } from "./pending.repository.ts";

export interface ActionInput {
  context: ContextModel;
  type: EntityType;
  /** The selected pending events, locked, already checked against the action's rules. */
  events: readonly PendingEventRef[];
  user: string;
}

/** A custom action's server side: runs inside the caller's transaction. */
export type ActionHandler = (tx: Db, input: ActionInput) => Promise<ApplyResult>;

/** Approves the selected changes and stamps `verified_on` with today's date as part of each change. */
const approveAsVerified: ActionHandler = async (tx, { context, type, events, user }) => {
  const ids = events.map((e) => e.event_id);
  // The date goes into the events themselves, so the history shows who verified what and when.
  await sql`update app.events set new_values = coalesce(new_values, '{}'::jsonb) || jsonb_build_object('verified_on', current_date::text)
    where event_id = any(${ids}::bigint[])`.execute(tx);
  return applyEvents(tx, context, type, events, user);
};

/** Handlers by the name a model's custom action gives (`handler: <name>`). */
export const ACTION_HANDLERS: ReadonlyMap<string, ActionHandler> = new Map([
  ["approve_as_verified", approveAsVerified],
]);
