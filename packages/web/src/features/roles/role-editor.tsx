import { useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Col from "react-bootstrap/Col";
import Row from "react-bootstrap/Row";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import { RoleList } from "./role-list.tsx";
import { useAddRole, useContextRoles, useRemoveRole, useUserRoles } from "./use-roles.ts";

export interface RoleEditorProps {
  username: string;
  context: string;
}

/** 'Roles of <user>' and 'Available roles' with add and remove, and the selected role's description. */
export function RoleEditor({ username, context }: RoleEditorProps) {
  const all = useContextRoles(context);
  const held = useUserRoles(context, username);
  const add = useAddRole();
  const remove = useRemoveRole();
  const [selected, setSelected] = useState<string | null>(null);

  if (all.isError || held.isError) {
    const error = all.error ?? held.error;
    return (
      <Alert variant="danger">
        {isApiError(error) ? error.message : "The roles could not be loaded"}
      </Alert>
    );
  }
  if (!all.data || !held.data)
    return <Spinner animation="border" role="status" aria-label="Loading roles" />;

  const heldNames = new Set(held.data.map((r) => r.name));
  const available = all.data.filter((r) => !heldNames.has(r.name));
  const selectedRole = all.data.find((r) => r.name === selected);
  const busy = add.isPending || remove.isPending || held.isFetching;
  const failed = add.error ?? remove.error;
  const clearError = () => {
    add.reset();
    remove.reset();
  };
  const change = (role: string, kind: "add" | "remove") => {
    setSelected(role);
    clearError();
    (kind === "add" ? add : remove).mutate({ context, username, role });
  };

  return (
    <>
      {failed && (
        <Alert variant="danger" dismissible onClose={clearError} data-testid="role-error">
          {isApiError(failed) ? failed.message : "The role was not changed"}
        </Alert>
      )}
      <Row className="g-3 align-items-center" style={{ maxWidth: 900 }}>
        <Col md={5}>
          <RoleList
            title={`Roles of ${username}`}
            roles={held.data}
            selected={selected}
            onSelect={setSelected}
            onMove={(role) => change(role, "remove")}
            empty="No roles in this application"
            testId="user-roles"
          />
        </Col>
        <Col md={2} className="d-flex flex-md-column gap-2 pt-md-4">
          <Button
            variant="outline-primary"
            className="flex-fill"
            disabled={busy || !selected || heldNames.has(selected)}
            onClick={() => selected && change(selected, "add")}
            data-testid="add-role"
          >
            <i className="bi bi-chevron-left me-1" aria-hidden="true" />
            add
          </Button>
          <Button
            variant="outline-danger"
            className="flex-fill"
            disabled={busy || !selected || !heldNames.has(selected)}
            onClick={() => selected && change(selected, "remove")}
            data-testid="remove-role"
          >
            remove
            <i className="bi bi-chevron-right ms-1" aria-hidden="true" />
          </Button>
        </Col>
        <Col md={5}>
          <RoleList
            title="Available roles"
            roles={available}
            selected={selected}
            onSelect={setSelected}
            onMove={(role) => change(role, "add")}
            empty="No other roles"
            testId="available-roles"
          />
        </Col>
      </Row>
      <p className="mt-3 mb-0" data-testid="role-description">
        {selectedRole ? (
          <>
            <strong>{selectedRole.uiname}</strong>: {selectedRole.uidescription}
          </>
        ) : (
          <span className="text-body-secondary">Select a role to see its description.</span>
        )}
      </p>
    </>
  );
}
