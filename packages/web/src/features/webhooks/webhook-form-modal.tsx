import {
  type EntityTypeInfo,
  WEBHOOK_KIND_TEXT,
  WEBHOOK_KINDS,
  type WebhookSecret,
  type WebhookSubscription,
} from "@ledgerline/contract";
import { type FormEvent, useId, useRef, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Modal from "react-bootstrap/Modal";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import { useCreateWebhook, useUpdateWebhook } from "./use-webhooks.ts";
import {
  checkWebhookForm,
  createRequest,
  initialWebhookForm,
  toggled,
  updateRequest,
  type WebhookFormField,
} from "./webhook-form.ts";

export interface WebhookFormModalProps {
  context: string;
  /** The application's types, by uiSequence: a checkbox each. */
  types: readonly EntityTypeInfo[];
  /** Absent: 'Add webhook'; present: the edit form of this subscription. */
  subscription?: WebhookSubscription;
  onClose: () => void;
  /** A new subscription: its secret, to be shown once. */
  onCreated: (answer: WebhookSecret) => void;
  onSaved: (subscription: WebhookSubscription) => void;
}

/** Add or edit a webhook: address, types (none: every type) and events. */
export function WebhookFormModal({
  context,
  types,
  subscription,
  onClose,
  onCreated,
  onSaved,
}: WebhookFormModalProps) {
  const titleId = useId();
  const typesHelpId = useId();
  const kindsProblemId = useId();
  const urlProblemId = useId();
  const address = useRef<HTMLInputElement>(null);
  const [values, setValues] = useState(() => initialWebhookForm(subscription));
  const [touched, setTouched] = useState<ReadonlySet<WebhookFormField>>(new Set());
  const create = useCreateWebhook();
  const update = useUpdateWebhook();
  const mutation = subscription ? update : create;
  const check = checkWebhookForm(values);
  const problem = (field: WebhookFormField) =>
    touched.has(field) ? check.problems?.[field] : undefined;
  const touch = (field: WebhookFormField) => setTouched((t) => new Set(t).add(field));
  const typeNames = types.map((t) => t.name);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (mutation.isPending) return;
    if (!check.fields) {
      setTouched(new Set(["url", "kinds"]));
      if (check.problems.url) address.current?.focus();
      return;
    }
    if (subscription) {
      update.mutate(updateRequest(subscription.subscriptionId, check.fields), {
        onSuccess: onSaved,
      });
    } else {
      create.mutate(createRequest(context, check.fields), { onSuccess: onCreated });
    }
  };

  const urlProblem = problem("url");
  const kindsProblem = problem("kinds");

  return (
    <Modal
      show
      onHide={onClose}
      onEntered={() => address.current?.focus()}
      centered
      backdrop="static"
      aria-labelledby={titleId}
      data-testid="webhook-form"
    >
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id={titleId}>
            {subscription ? "Edit webhook" : "Add webhook"}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {mutation.isError && (
            <Alert
              variant="danger"
              dismissible
              onClose={() => mutation.reset()}
              data-testid="webhook-form-error"
            >
              {isApiError(mutation.error) ? mutation.error.message : "The webhook was not saved"}
            </Alert>
          )}
          <Form.Group className="mb-3" controlId="webhook-url">
            <Form.Label>Address</Form.Label>
            <Form.Control
              ref={address}
              type="url"
              value={values.url}
              required
              maxLength={2000}
              autoComplete="off"
              spellCheck={false}
              placeholder="https://example.com/hooks/ledgerline"
              isInvalid={urlProblem !== undefined}
              aria-describedby={urlProblem ? urlProblemId : undefined}
              // No check on leaving the empty field: the message would push the checkboxes down
              // between the press and the release of a click on one of them.
              onChange={(event) => {
                setValues((v) => ({ ...v, url: event.target.value }));
                touch("url");
              }}
            />
            <Form.Control.Feedback id={urlProblemId} type="invalid">
              {urlProblem}
            </Form.Control.Feedback>
          </Form.Group>
          <fieldset className="mb-3" aria-describedby={typesHelpId}>
            <legend className="form-label fs-6 mb-1">Types</legend>
            {types.map((type) => (
              <Form.Check
                key={type.name}
                id={`webhook-type-${type.name}`}
                label={type.uiName}
                checked={values.entityTypes.includes(type.name)}
                onChange={(event) => {
                  const on = event.target.checked;
                  setValues((v) => ({
                    ...v,
                    entityTypes: toggled(v.entityTypes, type.name, on, typeNames),
                  }));
                }}
              />
            ))}
            <Form.Text id={typesHelpId}>None chosen: every type</Form.Text>
          </fieldset>
          <fieldset aria-describedby={kindsProblem ? kindsProblemId : undefined}>
            <legend className="form-label fs-6 mb-1">Events</legend>
            {WEBHOOK_KINDS.map((kind) => (
              <Form.Check
                key={kind}
                id={`webhook-kind-${kind}`}
                label={WEBHOOK_KIND_TEXT[kind]}
                checked={values.kinds.includes(kind)}
                isInvalid={kindsProblem !== undefined}
                onChange={(event) => {
                  const on = event.target.checked;
                  setValues((v) => ({ ...v, kinds: toggled(v.kinds, kind, on, WEBHOOK_KINDS) }));
                  touch("kinds");
                }}
              />
            ))}
            {kindsProblem && (
              <div id={kindsProblemId} className="invalid-feedback d-block">
                {kindsProblem}
              </div>
            )}
          </fieldset>
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose} disabled={mutation.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={mutation.isPending}>
            {mutation.isPending && (
              <Spinner as="span" size="sm" className="me-2" aria-hidden="true" />
            )}
            Save
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}
