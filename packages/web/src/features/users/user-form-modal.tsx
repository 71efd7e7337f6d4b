import type { UserSummary } from "@ledgerline/contract";
import { type FormEvent, useId, useState } from "react";
import Alert from "react-bootstrap/Alert";
import Button from "react-bootstrap/Button";
import Form from "react-bootstrap/Form";
import Modal from "react-bootstrap/Modal";
import Spinner from "react-bootstrap/Spinner";
import { isApiError } from "../../api/index.ts";
import { useCreateUser, useUpdateUser } from "./use-users.ts";
import {
  type UserFormField,
  type UserFormProblems,
  type UserFormValues,
  userFormProblems,
} from "./user-form.ts";

export interface UserFormModalProps {
  /** Absent: the 'Add new user' modal; present: the edit modal of this user. */
  user?: UserSummary;
  /** Only super administrators see the 'is admin' checkbox. */
  canSetAdmin: boolean;
  /** Usernames already in use, lower case (removed users are known only to the server). */
  taken: ReadonlySet<string>;
  onClose: () => void;
}

function initialValues(user: UserSummary | undefined): UserFormValues {
  return {
    username: user?.username ?? "",
    name: user?.name ?? "",
    email: user?.email ?? "",
    password: "",
    repeat: "",
    isadmin: user?.isadmin ?? false,
    editPassword: false,
  };
}

/** The add and edit user modals (SPEC.md section 2 'User administration', section 5). */
export function UserFormModal({ user, canSetAdmin, taken, onClose }: UserFormModalProps) {
  const mode = user ? "edit" : "add";
  const titleId = useId();
  const [values, setValues] = useState(() => initialValues(user));
  const [touched, setTouched] = useState<ReadonlySet<UserFormField>>(new Set());
  const create = useCreateUser();
  const update = useUpdateUser();
  const mutation = user ? update : create;
  const problems = userFormProblems(values, mode, taken);
  const valid = Object.keys(problems).length === 0;

  const touch = (field: UserFormField) => setTouched((t) => new Set(t).add(field));
  const set = (patch: Partial<UserFormValues>) => setValues((v) => ({ ...v, ...patch }));
  const done = { onSuccess: onClose };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!valid || mutation.isPending) return;
    const fields = {
      username: values.username.trim(),
      name: values.name.trim(),
      email: values.email.trim(),
      isadmin: values.isadmin,
    };
    if (user) {
      update.mutate({ ...fields, password: values.editPassword ? values.password : null }, done);
    } else {
      create.mutate({ ...fields, password: values.password }, done);
    }
  };

  const showPasswords = mode === "add" || values.editPassword;

  return (
    <Modal
      show
      onHide={onClose}
      centered
      backdrop="static"
      aria-labelledby={titleId}
      data-testid="user-form-modal"
    >
      <Form onSubmit={submit} noValidate>
        <Modal.Header closeButton>
          <Modal.Title as="h2" className="h5" id={titleId}>
            {user ? "Edit user" : "Add new user"}
          </Modal.Title>
        </Modal.Header>
        <Modal.Body>
          {mutation.isError && (
            <Alert
              variant="danger"
              dismissible
              onClose={() => mutation.reset()}
              data-testid="user-form-error"
            >
              {isApiError(mutation.error) ? mutation.error.message : "The user was not saved"}
            </Alert>
          )}
          <TextField
            id="user-username"
            label="Username"
            value={values.username}
            readOnly={mode === "edit"}
            autoComplete="off"
            problem={touched.has("username") ? problems.username : undefined}
            onChange={(username) => {
              set({ username });
              touch("username");
            }}
            onBlur={() => touch("username")}
          />
          <TextField
            id="user-name"
            label="Display name"
            value={values.name}
            autoComplete="off"
            problem={touched.has("name") ? problems.name : undefined}
            onChange={(name) => {
              set({ name });
              touch("name");
            }}
            onBlur={() => touch("name")}
          />
          <TextField
            id="user-email"
            label="Email"
            type="email"
            value={values.email}
            autoComplete="off"
            problem={touched.has("email") ? problems.email : undefined}
            onChange={(email) => {
              set({ email });
              touch("email");
            }}
            onBlur={() => touch("email")}
          />
          {mode === "edit" && (
            <Form.Check
              id="user-edit-password"
              className="mb-3"
              label="edit password"
              checked={values.editPassword}
              onChange={(event) =>
                set({ editPassword: event.target.checked, password: "", repeat: "" })
              }
            />
          )}
          {showPasswords && (
            <PasswordFields
              values={values}
              problems={touched.has("password") ? problems : {}}
              onChange={set}
              onTouch={() => touch("password")}
            />
          )}
          {canSetAdmin && (
            <Form.Check
              id="user-isadmin"
              label="is admin"
              checked={values.isadmin}
              onChange={(event) => set({ isadmin: event.target.checked })}
            />
          )}
        </Modal.Body>
        <Modal.Footer>
          <Button variant="outline-secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!valid || mutation.isPending} data-testid="user-form-ok">
            {mutation.isPending && (
              <Spinner as="span" animation="border" size="sm" className="me-2" aria-hidden="true" />
            )}
            {user ? "save changes" : "create user"}
          </Button>
        </Modal.Footer>
      </Form>
    </Modal>
  );
}

interface TextFieldProps {
  id: string;
  label: string;
  value: string;
  type?: string;
  readOnly?: boolean;
  autoComplete?: string;
  problem: string | undefined;
  onChange: (value: string) => void;
  onBlur?: () => void;
}

function TextField({ id, label, problem, onChange, ...input }: TextFieldProps) {
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label>{label}</Form.Label>
      <Form.Control
        {...input}
        className={input.readOnly ? "bg-body-secondary" : undefined}
        required
        isInvalid={problem !== undefined}
        onChange={(event) => onChange(event.target.value)}
      />
      <Form.Control.Feedback type="invalid">{problem}</Form.Control.Feedback>
    </Form.Group>
  );
}

interface PasswordFieldsProps {
  values: UserFormValues;
  problems: UserFormProblems;
  onChange: (patch: Partial<UserFormValues>) => void;
  onTouch: () => void;
}

/** Password and its repeat; one message under the pair ('required fields', 'passwords must match'). */
function PasswordFields({ values, problems, onChange, onTouch }: PasswordFieldsProps) {
  const invalid = problems.password !== undefined;
  return (
    <>
      <Form.Group className="mb-3" controlId="user-password">
        <Form.Label>Password</Form.Label>
        <Form.Control
          type="password"
          autoComplete="new-password"
          required
          isInvalid={invalid}
          value={values.password}
          onChange={(event) => onChange({ password: event.target.value })}
          onBlur={onTouch}
        />
      </Form.Group>
      <Form.Group className="mb-3" controlId="user-repeat">
        <Form.Label>Repeat password</Form.Label>
        <Form.Control
          type="password"
          autoComplete="new-password"
          required
          isInvalid={invalid}
          value={values.repeat}
          onChange={(event) => {
            onChange({ repeat: event.target.value });
            onTouch();
          }}
          onBlur={onTouch}
        />
        <Form.Control.Feedback type="invalid" data-testid="user-password-problem">
          {problems.password}
        </Form.Control.Feedback>
      </Form.Group>
    </>
  );
}
