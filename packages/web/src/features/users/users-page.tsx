import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Spinner from "react-bootstrap/Spinner";
import { Navigate } from "react-router";
import { isApiError } from "../../api/index.ts";
import { useProfile } from "../../state/session-store.ts";
import { ApiTokensSection } from "./api-tokens-section.tsx";
import { NotificationOverview } from "./notification-overview.tsx";
import { RemoveUserModal } from "./remove-user-modal.tsx";
import { UndeliveredMessages } from "./undelivered-messages.tsx";
import { useUsers } from "./use-users.ts";
import { UserFormModal } from "./user-form-modal.tsx";
import { UsersTable } from "./users-table.tsx";

type Dialog = "add" | "edit" | "remove" | null;

/** /usermanagement: administrators only; everyone else goes to / (the server refuses them too). */
export function UsersPage() {
  const profile = useProfile();
  if (!profile?.isadmin) return <Navigate to="/" replace />;
  return <UserManagement canSetAdmin={profile.issuperadmin} />;
}

function UserManagement({ canSetAdmin }: { canSetAdmin: boolean }) {
  const users = useUsers();
  const [selected, setSelected] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const list = users.data ?? [];
  const selectedUser = list.find((u) => u.username === selected);
  const taken = new Set(list.map((u) => u.username.toLowerCase()));
  const close = () => setDialog(null);

  return (
    <>
      <div className="d-flex flex-wrap align-items-center gap-2 mb-3">
        <h1 className="h3 mb-0 me-auto">User management</h1>
        <Button onClick={() => setDialog("add")} data-testid="add-user">
          <i className="bi bi-person-plus me-2" aria-hidden="true" />
          add user
        </Button>
        <Button
          variant="outline-primary"
          disabled={!selectedUser}
          onClick={() => setDialog("edit")}
          data-testid="edit-user"
        >
          <i className="bi bi-pencil me-2" aria-hidden="true" />
          edit user
        </Button>
        <Button
          variant="outline-danger"
          disabled={!selectedUser}
          onClick={() => setDialog("remove")}
          data-testid="remove-user"
        >
          <i className="bi bi-person-x me-2" aria-hidden="true" />
          remove user
        </Button>
      </div>

      {users.isPending && <Spinner animation="border" role="status" aria-label="Loading users" />}
      {users.isError && (
        <Alert variant="danger">
          {isApiError(users.error) ? users.error.message : "The users could not be loaded"}
        </Alert>
      )}
      {users.data && (
        <UsersTable
          users={list}
          selected={selectedUser ? selectedUser.username : null}
          onSelect={setSelected}
          onOpen={() => setDialog("edit")}
        />
      )}
      <NotificationOverview />
      <UndeliveredMessages />
      <ApiTokensSection />

      {dialog === "add" && (
        <UserFormModal canSetAdmin={canSetAdmin} taken={taken} onClose={close} />
      )}
      {dialog === "edit" && selectedUser && (
        <UserFormModal
          user={selectedUser}
          canSetAdmin={canSetAdmin}
          taken={taken}
          onClose={close}
        />
      )}
      {dialog === "remove" && selectedUser && (
        <RemoveUserModal
          user={selectedUser}
          onClose={close}
          onRemoved={() => {
            setSelected(null);
            close();
          }}
        />
      )}
    </>
  );
}
