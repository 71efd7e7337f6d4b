import { useState } from "react";
import Button from "react-bootstrap/Button";
import { ConfirmModal } from "../../../components/confirm-modal.tsx";
import { HintTooltip } from "../../../components/hint-tooltip.tsx";

export interface DeleteRecordButtonProps {
  /** The question of the confirmation (SPEC.md section 2). */
  confirmation: string;
  title: string;
  /** Why deleting is not allowed; the button is then disabled and this is its tooltip. */
  blockedHint?: string;
  disabled?: boolean;
  busy: boolean;
  onConfirm: (done: () => void) => void;
}

/** The red delete button of an edit form, asking for confirmation first. */
export function DeleteRecordButton(props: DeleteRecordButtonProps) {
  const { confirmation, title, blockedHint, disabled = false, busy, onConfirm } = props;
  const [asking, setAsking] = useState(false);
  return (
    <>
      <HintTooltip hint={blockedHint} id="delete-blocked-hint" testId="delete-blocked-hint">
        <Button
          variant="danger"
          disabled={disabled || busy || blockedHint !== undefined}
          onClick={() => setAsking(true)}
          data-testid="form-delete"
        >
          <i className="bi bi-trash3 me-2" aria-hidden="true" />
          Delete
        </Button>
      </HintTooltip>
      <ConfirmModal
        show={asking}
        title={title}
        confirmLabel="Delete"
        variant="danger"
        busy={busy}
        onConfirm={() => onConfirm(() => setAsking(false))}
        onCancel={() => setAsking(false)}
        testId="delete-confirm"
      >
        <p className="mb-0">{confirmation}</p>
      </ConfirmModal>
    </>
  );
}
