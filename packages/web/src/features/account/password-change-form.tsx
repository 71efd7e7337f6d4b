import { PASSWORD_MIN_LENGTH } from "@ledgerline/contract";
import { type FormEvent, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import {
  checkPasswordChange,
  emptyPasswordChange,
  type PasswordChangeField,
} from "./account-forms.ts";
import { useChangePassword } from "./use-account.ts";

const FIELDS: { field: PasswordChangeField; label: string; autoComplete: string }[] = [
  { field: "currentPassword", label: "Current password", autoComplete: "current-password" },
  { field: "newPassword", label: "New password", autoComplete: "new-password" },
  { field: "repeat", label: "Repeat new password", autoComplete: "new-password" },
];

/** 'Change password': current, new and repeated; the user's other sessions end on success. */
export function PasswordChangeForm({ username }: { username: string }) {
  const change = useChangePassword();
  const [values, setValues] = useState(emptyPasswordChange);
  const [touched, setTouched] = useState<ReadonlySet<PasswordChangeField>>(new Set());
  const check = checkPasswordChange(values);
  const problem = (field: PasswordChangeField) =>
    touched.has(field) ? check.problems?.[field] : undefined;

  const set = (field: PasswordChangeField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => new Set(t).add(field));
    if (!change.isPending) change.reset();
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check.request || change.isPending) return;
    change.mutate(check.request, {
      onSuccess: () => {
        setValues(emptyPasswordChange);
        setTouched(new Set());
      },
      // The new password stays for another try; the current one is typed again.
      onError: () => setValues((v) => ({ ...v, currentPassword: "" })),
    });
  };

  return (
    <Form onSubmit={submit} noValidate data-testid="password-form">
      {change.isSuccess && (
        <Alert variant="success" role="status" data-testid="password-changed">
          <i className="bi bi-check-circle me-2" aria-hidden="true" />
          Your password was changed
          <div className="small mt-1">You were signed out everywhere else.</div>
        </Alert>
      )}
      {change.isError && (
        <Alert variant="danger" dismissible onClose={() => change.reset()}>
          {isApiError(change.error) ? change.error.message : "The password was not changed"}
        </Alert>
      )}
      <input type="text" name="username" autoComplete="username" value={username} hidden readOnly />
      {FIELDS.map(({ field, label, autoComplete }) => (
        <Form.Group key={field} className="mb-3" controlId={`account-${field}`}>
          <Form.Label>{label}</Form.Label>
          <Form.Control
            type="password"
            autoComplete={autoComplete}
            required
            value={values[field]}
            isInvalid={problem(field) !== undefined}
            aria-describedby={field === "newPassword" ? "account-new-password-hint" : undefined}
            onChange={(event) => set(field, event.target.value)}
          />
          {field === "newPassword" && problem(field) === undefined && (
            <Form.Text id="account-new-password-hint">
              At least {PASSWORD_MIN_LENGTH} characters. Passwords known from data breaches are
              refused.
            </Form.Text>
          )}
          <Form.Control.Feedback type="invalid">{problem(field)}</Form.Control.Feedback>
        </Form.Group>
      ))}
      <div className="d-flex justify-content-end">
        <Button type="submit" disabled={check.request === null || change.isPending}>
          {change.isPending && (
            <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
          )}
          Change password
        </Button>
      </div>
    </Form>
  );
}
