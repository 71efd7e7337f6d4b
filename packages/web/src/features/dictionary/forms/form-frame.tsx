import type { FormEvent, ReactNode } from "react";
import Alert from "react-bootstrap/Alert";
import Breadcrumb from "react-bootstrap/Breadcrumb";
import Card from "react-bootstrap/Card";
import Form from "react-bootstrap/Form";
import Spinner from "react-bootstrap/Spinner";
import { Link } from "react-router";
import { LIST_PATH } from "../dictionary-texts.ts";
import { type Deletion, FormFooter } from "./form-footer.tsx";
import type { RecordForm } from "./use-record-form.ts";
import "../dictionary.css";

export interface FormFrameProps {
  title: string;
  icon: string;
  form: RecordForm;
  /** Save is enabled only when the form is valid and nothing is running. */
  valid: boolean;
  onSave: () => void;
  deletion: Deletion;
  children: ReactNode;
  testId: string;
}

/** The card of a system environment or metadata source form: fields, error, Delete / Cancel / Save. */
export function FormFrame(props: FormFrameProps) {
  const { title, icon, form, valid, onSave, deletion, children, testId } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid && form.ready && !form.saving) onSave();
  };

  return (
    <div className="dictionary-form" data-testid={testId}>
      <Breadcrumb className="small">
        <Breadcrumb.Item linkAs={Link} linkProps={{ to: LIST_PATH }}>
          System environments
        </Breadcrumb.Item>
        <Breadcrumb.Item active>{title}</Breadcrumb.Item>
      </Breadcrumb>
      <Card className="shadow-sm">
        <Card.Header className="d-flex align-items-center gap-2 bg-body py-3">
          <i className={`bi ${icon} text-primary fs-5`} aria-hidden="true" />
          <h1 className="h4 mb-0">{title}</h1>
        </Card.Header>
        <Form noValidate onSubmit={submit}>
          <Card.Body className="pt-4">
            {children}
            {form.error && (
              <Alert variant="danger" className="mb-0 mt-3" data-testid="form-error">
                {form.error}
              </Alert>
            )}
          </Card.Body>
          <FormFooter form={form} valid={valid} deletion={deletion} />
        </Form>
      </Card>
    </div>
  );
}

export interface FormRowProps {
  id: string;
  label: string;
  required?: boolean;
  /** Shown (and the control marked invalid by the caller) when set. */
  error?: string;
  help?: ReactNode;
  children: ReactNode;
}

/** One labelled field: label on the left, control, feedback and help on the right. */
export function FormRow({ id, label, required, error, help, children }: FormRowProps) {
  return (
    <Form.Group className="row mb-3" controlId={id}>
      <Form.Label className="col-sm-4 col-form-label fw-semibold">
        {label}
        {required && (
          <span className="text-danger ms-1" aria-hidden="true">
            *
          </span>
        )}
      </Form.Label>
      <div className="col-sm-8">
        {children}
        {error && (
          <Form.Control.Feedback type="invalid" className="d-block" data-testid={`${id}-error`}>
            {error}
          </Form.Control.Feedback>
        )}
        {help && !error && <Form.Text className="d-block">{help}</Form.Text>}
      </div>
    </Form.Group>
  );
}

/** The states of an edit page before its record is shown. */
export function RecordMissing({ loading, what }: { loading: boolean; what: string }) {
  return (
    <div className="dictionary-form">
      {loading ? (
        <Spinner animation="border" role="status" aria-label={`Loading the ${what}`} />
      ) : (
        <Alert variant="warning" data-testid="record-missing">
          This {what} does not exist or was deleted.{" "}
          <Link to={LIST_PATH} className="alert-link">
            Back to the list
          </Link>
        </Alert>
      )}
    </div>
  );
}
