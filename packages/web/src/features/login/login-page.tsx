import { type FormEvent, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import Form from "react-bootstrap/Form";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import { useLogin } from "./use-login.ts";

/** The sign-in screen (/login), the only one reachable without a session. */
export function LoginPage() {
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const login = useLogin();
  const canSubmit = username.trim() !== "" && password !== "" && !login.isPending;

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (canSubmit) login.mutate({ username, password });
  };

  const clear = () => {
    setUsername("");
    setPassword("");
  };

  return (
    <div className="mx-auto mt-5" style={{ maxWidth: 420 }}>
      <Card className="shadow-sm">
        <Card.Body className="p-4">
          <h1 className="h4 mb-4">Please log in to continue</h1>
          {login.isError && (
            <Alert
              variant="danger"
              dismissible
              onClose={() => login.reset()}
              data-testid="login-error"
            >
              {isApiError(login.error) ? login.error.message : "Sign-in failed"}
            </Alert>
          )}
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
                {login.isPending && (
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
        </Card.Body>
      </Card>
    </div>
  );
}
