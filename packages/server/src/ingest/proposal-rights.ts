import type { TypeFlags } from "../admin/permissions.ts";
import type { DiffCounts } from "./diff.repository.ts";
import { type IngestInput, IngestRejected, type ProposalRights } from "./ingest-input.ts";

/** What the per-type flags allow an ingest's proposer to propose. */
export function proposalRightsOf(flags: TypeFlags): ProposalRights {
  return { create: flags.cancreate, edit: flags.canedit, delete: flags.candelete };
}

/** Every right, for an ingest whose proposer was checked otherwise (tests of the engine alone). */
export const ANY_PROPOSAL: ProposalRights = { create: true, edit: true, delete: true };

const NEEDS = [
  { kind: "added", right: "create", done: "added" },
  { kind: "changed", right: "edit", done: "changed" },
  { kind: "missing", right: "delete", done: "marked missing" },
] as const;

/**
 * Refuses (403) an ingest whose classified rows propose what its proposer may not: an Add needs
 * the create right, a Change edit, a Missing delete. Called once the rows are classified and before
 * they are written (or, where chunks are written as they are read, before each chunk's write, so
 * the refusal rolls the open transaction back: `partial`, the counts are then the chunk's, and the
 * file may hold more); a dry run is refused alike, saying so.
 */
export function checkProposal(
  input: Pick<IngestInput, "type" | "rights" | "dryRun">,
  kinds: Pick<DiffCounts, "added" | "changed" | "missing">,
  partial = false,
): void {
  const type = input.type.uiName;
  const refused = NEEDS.filter((n) => kinds[n.kind] > 0 && !input.rights[n.right]).map(
    (n) =>
      `you may not ${n.right} ${type} records (${partial ? "at least " : ""}${kinds[n.kind]} would be ${n.done})`,
  );
  if (refused.length === 0) return;
  const head = input.dryRun
    ? "Check only, nothing was changed. The changes would be refused:"
    : "The changes were refused; nothing was changed:";
  throw new IngestRejected(403, `${head} ${refused.join("; ")}`);
}
