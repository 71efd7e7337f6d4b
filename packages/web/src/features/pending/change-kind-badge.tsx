import type { PendingAction } from "@ledgerline/contract";
import { CHANGE_LABELS, effectOf, UPLOAD_ACTIONS } from "./change-kinds.ts";

/** A kind of change as a coloured label: green adds, yellow edits, red removals. */
export function ChangeKindBadge({ action }: { action: PendingAction }) {
  const upload = UPLOAD_ACTIONS.includes(action);
  return (
    <span
      className={`pending-kind pending-effect-${effectOf(action)}`}
      title={upload ? "From upload" : "From web"}
      data-testid="change-kind"
    >
      <i
        className={`bi ${upload ? "bi-file-earmark-arrow-up" : "bi-pencil"} me-1`}
        aria-hidden="true"
      />
      {CHANGE_LABELS[action]}
    </span>
  );
}
