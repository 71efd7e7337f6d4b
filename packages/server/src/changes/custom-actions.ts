import { sql } from "kysely";
import type { Db } from "../db/connection.ts";
import type { ContextModel, EntityType } from "../model/model.ts";
import { type ApplyResult, applyEvents } from "./apply-events.ts";
import { SELECTED, type SelectedSummary, withinSelection } from "./selected-events.ts";

export interface ActionInput {
  context: ContextModel;
  type: EntityType;
  /** The selected pending events (SELECTED), already checked against the action's rules. */
  selected: SelectedSummary;
  user: string;
}

/** A custom action's server side: runs inside the caller's transaction. */
export type ActionHandler = (tx: Db, input: ActionInput) => Promise<ApplyResult>;

/** Approves the selected changes and stamps `verified_on` with today's date as part of each change. */
const approveAsVerified: ActionHandler = async (tx, { context, type, selected, user }) => {
  // The date goes into the events themselves, so the history shows who verified what and when.
  await sql`update app.events e set new_values = coalesce(e.new_values, '{}'::jsonb) || jsonb_build_object('verified_on', current_date::text)
    from ${SELECTED} s where e.event_id = s.event_id and ${withinSelection(selected)}`.execute(tx);
  return applyEvents(tx, context, type, selected, user);
};

/** Handlers by the name a model's custom action gives (`handler: <name>`). */
export const ACTION_HANDLERS: ReadonlyMap<string, ActionHandler> = new Map([
  ["approve_as_verified", approveAsVerified],
]);
