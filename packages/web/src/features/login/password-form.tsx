import type { LoginForm } from "@ledgerline/contract";
import { type FormEvent, useState } from "react";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Spinner from "react-bootstrap/Spinner";

/** Username, password, 'Sign in' (spinner while waiting) and 'Clear'. */
export function PasswordForm({
  pending,
  onSubmit,
}: {
  pending: boolean;
  onSubmit: (form: LoginForm) => void;
}) {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const canSubmit = username.trim() !== "" && password !== "" && !pending;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSubmit) onSubmit({ username, password });
  };

  const clear = () => {
    setUsername("");
    setPassword("");
  };

  return (
    <Form onSubmit={submit} noValidate>
      <Form.Group className="mb-3" controlId="login-username">
        <Form.Label>Username</Form.Label>
        <Form.Control
          name="username"
          autoComplete="username"
          required
          value={username}
          onChange={(event) => setUsername(event.target.value)}
        />
      </Form.Group>
      <Form.Group className="mb-4" controlId="login-password">
        <Form.Label>Password</Form.Label>
        <Form.Control
          type="password"
          name="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Form.Group>
      <div className="d-flex gap-2">
        <Button type="submit" disabled={!canSubmit} data-testid="login-submit">
          {pending && (
            <Spinner
              as="span"
              animation="border"
              size="sm"
              className="me-2"
              aria-hidden="true"
              data-testid="login-spinner"
            />
          )}
          Sign in
        </Button>
        <Button type="button" variant="outline-secondary" onClick={clear}>
          Clear
        </Button>
      </div>
    </Form>
  );
}
