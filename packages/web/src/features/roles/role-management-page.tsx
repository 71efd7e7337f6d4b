import { useState } from "react";
import Col from "react-bootstrap/Col";
import Form from "react-bootstrap/Form";
import Row from "react-bootstrap/Row";
import { Navigate } from "react-router";
import { useProfile } from "../../state/session-store.ts";
import { RoleEditor } from "./role-editor.tsx";
import { useAllContexts, useRoleUsers } from "./use-roles.ts";

/** /rolemanagement: administrators only; everyone else goes to / (the server refuses them too). */
export function RoleManagementPage() {
  const profile = useProfile();
  if (!profile?.isadmin) return <Navigate to="/" replace />;
  return <RoleManagement />;
}

function RoleManagement() {
  const users = useRoleUsers();
  const contexts = useAllContexts();
  const [username, setUsername] = useState<string | null>(null);
  const [context, setContext] = useState<string | null>(null);

  return (
    <>
      <h1 className="h3 mb-3">Role management</h1>
      <Row className="g-3 mb-4" style={{ maxWidth: 900 }}>
        <Col md={6}>
          <Form.Group controlId="role-user">
            <Form.Label>User</Form.Label>
            <Form.Select
              value={username ?? ""}
              onChange={(event) => setUsername(event.target.value || null)}
              disabled={!users.data}
            >
              <option value="">Select a user</option>
              {users.data?.map((user) => (
                <option key={user.username} value={user.username}>
                  {user.username} ({user.name})
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
        <Col md={6}>
          <Form.Group controlId="role-context">
            <Form.Label>Application</Form.Label>
            <Form.Select
              value={context ?? ""}
              onChange={(event) => setContext(event.target.value || null)}
              disabled={!contexts.data}
            >
              <option value="">Select an application</option>
              {contexts.data?.map((c) => (
                <option key={c.name} value={c.name}>
                  {c.uiName}
                </option>
              ))}
            </Form.Select>
          </Form.Group>
        </Col>
      </Row>
      {username !== null && context !== null ? (
        <RoleEditor key={`${username}\u0000${context}`} username={username} context={context} />
      ) : (
        <p className="text-body-secondary" data-testid="role-pick-prompt">
          Pick a user and an application to see and change the user's roles.
        </p>
      )}
    </>
  );
}
