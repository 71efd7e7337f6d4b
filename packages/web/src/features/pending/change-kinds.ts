import {
  type CustomActionInfo,
  PENDING_ACTIONS,
  type PendingAction,
  type PendingChange,
} from "@ledgerline/contract";
import dayjs from "dayjs";
import type { ChangeEffect } from "../../components/changes/change-model.ts";

/** SPEC.md section 2: the names of the kinds of change in the counts, the filter and the table. */
export const CHANGE_LABELS: Record<PendingAction, string> = {
  Add: "Added",
  Change: "Changed",
  Missing: "Missing",
  Create: "Created",
  Update: "Updated",
  Amend: "Amended",
  Delete: "Deleted",
};

export const UPLOAD_ACTIONS: readonly PendingAction[] = ["Add", "Change", "Missing"];
export const WEB_ACTIONS: readonly PendingAction[] = ["Create", "Update", "Amend", "Delete"];

const EFFECTS: Record<PendingAction, ChangeEffect> = {
  Add: "new",
  Create: "new",
  Change: "changed",
  Update: "changed",
  Amend: "changed",
  Missing: "removed",
  Delete: "removed",
};

export function effectOf(action: PendingAction): ChangeEffect {
  return EFFECTS[action];
}

/** SPEC.md section 4: the flag of a custom action that must not be false for a kind of change. */
const ACTION_FLAG: Record<ChangeEffect, "onCreate" | "onUpdate" | "onDelete"> = {
  new: "onCreate",
  changed: "onUpdate",
  removed: "onDelete",
};

/** The kinds among `kinds` that the custom action may not run on, in the usual order. */
export function refusedKinds(
  action: CustomActionInfo,
  kinds: Iterable<PendingAction>,
): PendingAction[] {
  const refused = new Set([...kinds].filter((k) => action[ACTION_FLAG[effectOf(k)]] === false));
  return PENDING_ACTIONS.filter((k) => refused.has(k));
}

/** How many changes of each kind, in the usual order, leaving out kinds with none. */
export function countByKind(
  changes: readonly Pick<PendingChange, "action">[],
): [PendingAction, number][] {
  return PENDING_ACTIONS.map((k): [PendingAction, number] => [
    k,
    changes.filter((c) => c.action === k).length,
  ]).filter(([, n]) => n > 0);
}

/** SPEC.md section 2: 'Change date' reads YYYY/MM/DD HH:mm:ss in local time. */
export function changeDateText(iso: string): string {
  return dayjs(iso).format("YYYY/MM/DD HH:mm:ss");
}
