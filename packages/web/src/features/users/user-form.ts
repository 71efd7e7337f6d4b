import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@ledgerline/contract";

/** What the add and edit user modals hold while the administrator types. */
export interface UserFormValues {
  username: string;
  name: string;
  email: string;
  password: string;
  repeat: string;
  isadmin: boolean;
  /** Edit only: the 'edit password' checkbox; adding a user always sets a password. */
  editPassword: boolean;
}

export type UserFormField = "username" | "name" | "email" | "password";

export type UserFormProblems = Partial<Record<UserFormField, string>>;

/**
 * The messages of SPEC.md section 5 ('New user', 'Edit user') for the current values; empty when
 * the form may be sent. `taken` holds the known usernames in lower case.
 */
export function userFormProblems(
  values: UserFormValues,
  mode: "add" | "edit",
  taken: ReadonlySet<string>,
): UserFormProblems {
  const problems: UserFormProblems = {};
  if (mode === "add") {
    const username = values.username.trim();
    if (username === "") problems.username = "required field";
    else if (taken.has(username.toLowerCase())) problems.username = "username unavailable";
  }
  if (values.name.trim() === "") problems.name = "required field";
  if (values.email.trim() === "") problems.email = "required field";
  if (mode === "add" || values.editPassword) {
    const password = passwordProblem(values.password, values.repeat);
    if (password) problems.password = password;
  }
  return problems;
}

function passwordProblem(password: string, repeat: string): string | undefined {
  if (password === "" || repeat === "") return "required fields";
  if (password !== repeat) return "passwords must match";
  if (password.length < PASSWORD_MIN_LENGTH)
    return `Password must have at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH)
    return `Password must have at most ${PASSWORD_MAX_LENGTH} characters`;
  return undefined;
}
