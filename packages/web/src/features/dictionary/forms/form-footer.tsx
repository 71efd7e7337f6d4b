import { useState } from "react";
import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import Spinner from "react-bootstrap/Spinner";
import { useNavigate } from "react-router";
import { ConfirmModal } from "../../../components/confirm-modal.tsx";
import { HintTooltip } from "../../../components/hint-tooltip.tsx";
import { LIST_PATH } from "../dictionary-texts.ts";
import type { RecordForm } from "./use-record-form.ts";

/** The red delete button of an edit form, asking for confirmation first. */
export interface Deletion {
  /** The title and question of the confirmation (SPEC.md section 2). */
  title: string;
  confirmation: string;
  /** Why deleting is not allowed; the button is then disabled and this is its tooltip. */
  blockedHint?: string;
  disabled?: boolean;
}

export interface FormFooterProps {
  form: RecordForm;
  /** The form's own fields are valid (and whatever it checks against has loaded). */
  valid: boolean;
  /** Offered on an edit form only. */
  deletion: Deletion;
}

/** Delete (on an edit form, with its confirmation), Cancel back to the list, and Save. */
export function FormFooter({ form, valid, deletion }: FormFooterProps) {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const { title, confirmation, blockedHint, disabled = false } = deletion;
  return (
    <Card.Footer className="d-flex flex-wrap gap-2 bg-body py-3">
      {form.editing && (
        <>
          <HintTooltip hint={blockedHint} id="delete-blocked-hint" testId="delete-blocked-hint">
            <Button
              variant="danger"
              disabled={disabled || form.deleting || blockedHint !== undefined}
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
            busy={form.deleting}
            onConfirm={() => form.remove(() => setAsking(false))}
            onCancel={() => setAsking(false)}
            testId="delete-confirm"
          >
            <p className="mb-0">{confirmation}</p>
          </ConfirmModal>
        </>
      )}
      <Button
        variant="outline-secondary"
        className="ms-auto"
        onClick={() => void navigate(LIST_PATH)}
        disabled={form.saving}
        data-testid="form-cancel"
      >
        Cancel
      </Button>
      <Button type="submit" disabled={!valid || !form.ready || form.saving} data-testid="form-save">
        {form.saving ? (
          <Spinner size="sm" className="me-2" aria-hidden="true" />
        ) : (
          <i className="bi bi-check2 me-2" aria-hidden="true" />
        )}
        Save
      </Button>
    </Card.Footer>
  );
}
