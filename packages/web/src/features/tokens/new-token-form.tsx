import { type CreateApiTokenRequest, TOKEN_SCOPES } from "@ledgerline/contract";
import { type FormEvent, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Card from "react-bootstrap/Card";
import Col from "react-bootstrap/Col";
import Form from "react-bootstrap/Form";
import Row from "react-bootstrap/Row";
import Spinner from "react-bootstrap/Spinner";
import {
  checkTokenForm,
  initialTokenForm,
  maxDaysText,
  type TokenFormField,
} from "./token-form.ts";

export interface NewTokenFormProps {
  /** The longest lifetime the server allows, in days. */
  maxDays: number;
  busy: boolean;
  /** The server's refusal of the last attempt, if any. */
  error: string | null;
  onDismissError: () => void;
  /** Sends the request; `onCreated` empties the form once the token exists. */
  onCreate: (request: CreateApiTokenRequest, onCreated: () => void) => void;
}

/** 'New token': name, scope and lifetime; 'Create token' stays disabled until they are valid. */
export function NewTokenForm({
  maxDays,
  busy,
  error,
  onDismissError,
  onCreate,
}: NewTokenFormProps) {
  const [values, setValues] = useState(() => initialTokenForm(maxDays));
  const [touched, setTouched] = useState<ReadonlySet<TokenFormField>>(new Set());
  const check = checkTokenForm(values, maxDays);
  const problem = (field: TokenFormField) =>
    touched.has(field) ? check.problems?.[field] : undefined;
  const daysProblem = problem("expiresInDays");

  const set = (field: TokenFormField, value: string) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((t) => new Set(t).add(field));
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!check.request || busy) return;
    onCreate(check.request, () => {
      setValues(initialTokenForm(maxDays));
      setTouched(new Set());
    });
  };

  return (
    <Card className="shadow-sm mb-4" data-testid="new-token">
      <Card.Header className="bg-body-tertiary">
        <h2 className="h6 mb-0">New token</h2>
      </Card.Header>
      <Card.Body>
        {error !== null && (
          <Alert variant="danger" dismissible onClose={onDismissError} data-testid="token-error">
            {error}
          </Alert>
        )}
        <Form onSubmit={submit} noValidate>
          <Row className="g-3 align-items-start">
            <Form.Group as={Col} md={5} controlId="token-name">
              <Form.Label>Name</Form.Label>
              <Form.Control
                value={values.name}
                required
                maxLength={100}
                autoComplete="off"
                placeholder="e.g. nightly export"
                isInvalid={problem("name") !== undefined}
                onChange={(event) => set("name", event.target.value)}
                onBlur={() => setTouched((t) => new Set(t).add("name"))}
              />
              <Form.Control.Feedback type="invalid">{problem("name")}</Form.Control.Feedback>
            </Form.Group>
            <Form.Group as={Col} sm={6} md={3} controlId="token-scope">
              <Form.Label>Scope</Form.Label>
              <Form.Select
                value={values.scope}
                onChange={(event) => set("scope", event.target.value)}
              >
                {TOKEN_SCOPES.map((scope) => (
                  <option key={scope} value={scope}>
                    {scope}
                  </option>
                ))}
              </Form.Select>
            </Form.Group>
            <Form.Group as={Col} sm={6} md={4} controlId="token-days">
              <Form.Label>Expires in (days)</Form.Label>
              <Form.Control
                type="number"
                min={1}
                max={maxDays}
                step={1}
                required
                value={values.expiresInDays}
                isInvalid={daysProblem !== undefined}
                aria-describedby="token-days-hint"
                onChange={(event) => set("expiresInDays", event.target.value)}
              />
              {/* The hint turns into the message: 'at most <maxDays> days' is both. */}
              {daysProblem === undefined ? (
                <Form.Text id="token-days-hint">{maxDaysText(maxDays)}</Form.Text>
              ) : (
                <Form.Control.Feedback id="token-days-hint" type="invalid">
                  {daysProblem}
                </Form.Control.Feedback>
              )}
            </Form.Group>
          </Row>
          <div className="d-flex justify-content-end mt-3">
            <Button type="submit" disabled={check.request === null || busy}>
              {busy ? (
                <Spinner
                  as="span"
                  animation="border"
                  size="sm"
                  className="me-2"
                  aria-hidden="true"
                />
              ) : (
                <i className="bi bi-plus-lg me-2" aria-hidden="true" />
              )}
              Create token
            </Button>
          </div>
        </Form>
      </Card.Body>
    </Card>
  );
}
