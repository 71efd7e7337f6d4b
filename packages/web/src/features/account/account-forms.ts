import {
  ChangeEmailRequest,
  type ChangePasswordRequest,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from "@ledgerline/contract";

/** A form's request once it may be sent, or the message of each field that keeps it back. */
export type FormCheck<Request, Field extends string> =
  | { request: Request; problems: null }
  | { request: null; problems: Partial<Record<Field, string>> };

/** 'Change password' while the user types. */
export interface PasswordChangeValues {
  currentPassword: string;
  newPassword: string;
  repeat: string;
}
export type PasswordChangeField = keyof PasswordChangeValues;

export const emptyPasswordChange: PasswordChangeValues = {
  currentPassword: "",
  newPassword: "",
  repeat: "",
};

/**
 * The length rules of DESIGN.md section 11 in the server's words, and the repeat matching; whether
 * the password was breached only the server says (its list is not sent to browsers).
 */
export function checkPasswordChange(
  values: PasswordChangeValues,
): FormCheck<ChangePasswordRequest, PasswordChangeField> {
  const problems: Partial<Record<PasswordChangeField, string>> = {};
  if (values.currentPassword === "") problems.currentPassword = "Current password is required";
  const length = values.newPassword.length;
  if (length === 0) problems.newPassword = "New password is required";
  else if (length < PASSWORD_MIN_LENGTH)
    problems.newPassword = `Password must have at least ${PASSWORD_MIN_LENGTH} characters`;
  else if (length > PASSWORD_MAX_LENGTH)
    problems.newPassword = `Password must have at most ${PASSWORD_MAX_LENGTH} characters`;
  if (values.repeat !== values.newPassword) problems.repeat = "The new passwords do not match";
  if (Object.keys(problems).length > 0) return { request: null, problems };
  return {
    request: { currentPassword: values.currentPassword, newPassword: values.newPassword },
    problems: null,
  };
}

/** 'E-mail address' while the user types. */
export interface EmailChangeValues {
  email: string;
  currentPassword: string;
}
export type EmailChangeField = keyof EmailChangeValues;

/** The contract's rules, so that the texts are the server's. */
export function checkEmailChange(
  values: EmailChangeValues,
): FormCheck<ChangeEmailRequest, EmailChangeField> {
  const parsed = ChangeEmailRequest.safeParse(values);
  if (parsed.success) return { request: parsed.data, problems: null };
  const problems: Partial<Record<EmailChangeField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as EmailChangeField;
    problems[field] ??= issue.message;
  }
  return { request: null, problems };
}
