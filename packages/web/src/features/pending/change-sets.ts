import {
  type EntityQuery,
  PENDING_ACTIONS,
  type PendingAction,
  type PendingChangeSet,
} from "@ledgerline/contract";
import { changeDateText, countByKind } from "./change-kinds.ts";
import type { Decision } from "./use-decisions.ts";

/** Which change set a pending list shows: one upload, or the imports of one metadata source. */
export type ChangeSetRef = Pick<PendingChangeSet, "kind" | "id">;

/** The value of a change set in a select, the same text its events carry as their source. */
export const changeSetValue = ({ kind, id }: ChangeSetRef): string => `${kind}:${id}`;

/**
 * The change set a link names (`upload:12`, `import:5`, as changeSetValue writes it), or null for
 * anything else: a hand-edited link shows every change rather than failing.
 */
export function parseChangeSetValue(text: string | null): ChangeSetRef | null {
  const match = /^(upload|import):([1-9]\d{0,14})$/.exec(text ?? "");
  if (!match) return null;
  return { kind: match[1] === "upload" ? "upload" : "import", id: Number(match[2]) };
}

export const sameChangeSet = (a: ChangeSetRef, b: ChangeSetRef): boolean =>
  a.kind === b.kind && a.id === b.id;

/** '<file name> — <who>, <YYYY/MM/DD HH:mm:ss> (<n> pending)'; imports name their metadata source. */
export function changeSetLabel(set: PendingChangeSet): string {
  const what = set.kind === "upload" ? set.name : `Metadata import: ${set.name}`;
  return `${what} — ${set.createdBy}, ${changeDateText(set.createdAt)} (${set.pending} pending)`;
}

/** The part of a pending list's query that keeps only one change set's changes. */
export function changeSetQuery(
  set: ChangeSetRef | null,
): Pick<EntityQuery, "pendingUploadId" | "pendingImportSourceId"> {
  if (set === null) return {};
  return set.kind === "upload" ? { pendingUploadId: set.id } : { pendingImportSourceId: set.id };
}

/** What a confirmation lists: changes per kind, in all, and how many the user made. */
export function decisionCounts(
  decision: Decision,
  username: string | undefined,
): { kinds: [PendingAction, number][]; total: number; own: number } {
  const { upload, changes } = decision;
  if (upload) {
    const kinds = PENDING_ACTIONS.map((k): [PendingAction, number] => [k, upload.counts[k]]);
    return {
      kinds: kinds.filter(([, n]) => n > 0),
      total: upload.pending,
      own: upload.createdBy === username ? upload.pending : 0,
    };
  }
  return {
    kinds: countByKind(changes),
    total: changes.length,
    own: changes.filter((c) => c.createdBy === username).length,
  };
}
