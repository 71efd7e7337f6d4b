import type { UserSummary } from "@ledgerline/contract";
import { useId } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Modal from "react-bootstrap/Modal";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import { useRemoveUser } from "./use-users.ts";

export interface RemoveUserModalProps {
  user: UserSummary;
  onClose: () => void;
  onRemoved: () => void;
}

/** The remove confirmation; the username is shown too, as display names need not be unique. */
export function RemoveUserModal({ user, onClose, onRemoved }: RemoveUserModalProps) {
  const remove = useRemoveUser();
  const titleId = useId();

  return (
    <Modal show onHide={onClose} centered aria-labelledby={titleId} data-testid="remove-user-modal">
      <Modal.Header closeButton>
        <Modal.Title as="h2" className="h5" id={titleId}>
          Remove user
        </Modal.Title>
      </Modal.Header>
      <Modal.Body>
        {remove.isError && (
          <Alert
            variant="danger"
            dismissible
            onClose={() => remove.reset()}
            data-testid="remove-user-error"
          >
            {isApiError(remove.error) ? remove.error.message : "The user was not removed"}
          </Alert>
        )}
        <p className="mb-1">Are you sure you want to remove user {user.name}?</p>
        <p className="small text-body-secondary mb-0">
          Username: <span className="font-monospace">{user.username}</span>
        </p>
      </Modal.Body>
      <Modal.Footer>
        <Button variant="outline-secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button
          variant="danger"
          disabled={remove.isPending}
          data-testid="remove-user-ok"
          onClick={() => remove.mutate({ username: user.username }, { onSuccess: onRemoved })}
        >
          {remove.isPending && (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          )}
          remove user
        </Button>
      </Modal.Footer>
    </Modal>
  );
}
