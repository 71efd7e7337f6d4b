import { type FormEvent, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import { checkEmailChange, type EmailChangeField } from "./account-forms.ts";
import { useChangeEmail } from "./use-account.ts";

/** 'E-mail address': the address, the current password to confirm it, 'Change e-mail address'. */
export function EmailForm({ username, email }: { username: string; email: string }) {
  const change = useChangeEmail();
  const [values, setValues] = useState({ email, currentPassword: "" });
  const [touched, setTouched] = useState<ReadonlySet<EmailChangeField>>(new Set());
  const check = checkEmailChange(values);
  const problem = (field: EmailChangeField) =>
    touched.has(field) ? check.problems?.[field] : undefined;

  const set = (field: EmailChangeField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => new Set(t).add(field));
    if (!change.isPending) change.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check.request || change.isPending) return;
    change.mutate(check.request, {
      onSuccess: (account) => {
        setValues({ email: account.email, currentPassword: "" });
        setTouched(new Set());
      },
    });
  };

  return (
    <Form onSubmit={submit} noValidate data-testid="email-form">
      {change.isSuccess && (
        <Alert variant="success" role="status" data-testid="email-changed">
          <i className="bi bi-check-circle me-2" aria-hidden="true" />
          Your e-mail address was changed
        </Alert>
      )}
      {change.isError && (
        <Alert variant="danger" dismissible onClose={() => change.reset()}>
          {isApiError(change.error) ? change.error.message : "The e-mail address was not changed"}
        </Alert>
      )}
      {/* Tells a password manager whose account this is. */}
      <input type="text" name="username" autoComplete="username" value={username} hidden readOnly />
      <Form.Group className="mb-3" controlId="account-email">
        <Form.Label>E-mail address</Form.Label>
        <Form.Control
          type="email"
          autoComplete="email"
          maxLength={256}
          required
          value={values.email}
          isInvalid={problem("email") !== undefined}
          onChange={(event) => set("email", event.target.value)}
        />
        <Form.Control.Feedback type="invalid">{problem("email")}</Form.Control.Feedback>
      </Form.Group>
      <Form.Group className="mb-3" controlId="account-email-password">
        <Form.Label>Current password</Form.Label>
        <Form.Control
          type="password"
          autoComplete="current-password"
          required
          value={values.currentPassword}
          isInvalid={problem("currentPassword") !== undefined}
          onChange={(event) => set("currentPassword", event.target.value)}
        />
        <Form.Control.Feedback type="invalid">{problem("currentPassword")}</Form.Control.Feedback>
      </Form.Group>
      <div className="d-flex justify-content-end">
        <Button type="submit" disabled={check.request === null || change.isPending}>
          {change.isPending && (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          )}
          Change e-mail address
        </Button>
      </div>
    </Form>
  );
}
