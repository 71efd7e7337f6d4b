import { type ReactNode, useId } from "react";
import Button from "react-bootstrap/Button";
import Modal from "react-bootstrap/Modal";
import Spinner from "react-bootstrap/Spinner";

export interface ConfirmModalProps {
  show: boolean;
  title: string;
  children: ReactNode;
  confirmLabel?: string;
  cancelLabel?: string;
  /** Bootstrap variant of the confirm button ('danger' for removals). */
  variant?: string;
  /** While the confirmed action runs: buttons disabled, spinner on the confirm button. */
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}

/** A yes/no question before an action that changes data. */
export function ConfirmModal({
  show,
  title,
  children,
  confirmLabel = "OK",
  cancelLabel = "Cancel",
  variant = "primary",
  busy = false,
  onConfirm,
  onCancel,
  testId = "confirm-modal",
}: ConfirmModalProps) {
  const titleId = useId();
  return (
    <Modal
      show={show}
      onHide={busy ? () => {} : onCancel}
      centered
      aria-labelledby={titleId}
      data-testid={testId}
    >
      <Modal.Header closeButton={!busy}>
        <Modal.Title as="h2" className="h5" id={titleId}>
          {title}
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>{children}</Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onCancel} disabled={busy}>
          {cancelLabel}
        </Button>
        <Button variant={variant} onClick={onConfirm} disabled={busy}>
          {busy && <Spinner size="sm" className="me-2" aria-hidden="true" />}
          {confirmLabel}
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
