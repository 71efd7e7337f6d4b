import type { PendingAction } from "@ledgerline/contract";
import { ChangeBadge } from "../../components/changes/change-badge.tsx";
import { CHANGE_LABELS, effectOf, UPLOAD_ACTIONS } from "./change-kinds.ts";

/** A kind of pending change in its colours, with where it comes from (upload or web). */
export function ChangeKindBadge({ action }: { action: PendingAction }) {
  const upload = UPLOAD_ACTIONS.includes(action);
  return (
    <ChangeBadge effect={effectOf(action)} title={upload ? "From upload" : "From web"}>
      <i
        className={`bi ${upload ? "bi-file-earmark-arrow-up" : "bi-pencil"} me-1`}
        aria-hidden="true"
      />
      {CHANGE_LABELS[action]}
    </ChangeBadge>
  );
}
