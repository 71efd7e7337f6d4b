import type { TypeFlags } from "../admin/permissions.ts";
import type { ProposalRights } from "./ingest-input.ts";

/** What the per-type flags allow an ingest's proposer to propose. */
export function proposalRightsOf(flags: TypeFlags): ProposalRights {
  return { create: flags.cancreate, edit: flags.canedit, delete: flags.candelete };
}

/** Every right, for an ingest whose proposer was checked otherwise (tests of the engine alone). */
export const ANY_PROPOSAL: ProposalRights = { create: true, edit: true, delete: true };
