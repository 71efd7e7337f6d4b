import { CreateApiTokenRequest } from "@ledgerline/contract";

/** The new-token form while the user types; `expiresInDays` is the number input's text. */
export interface TokenFormValues {
  name: string;
  scope: CreateApiTokenRequest["scope"];
  expiresInDays: string;
}

export type TokenFormField = keyof TokenFormValues;
export type TokenFormProblems = Partial<Record<TokenFormField, string>>;

export type TokenFormCheck =
  | { request: CreateApiTokenRequest; problems: null }
  | { request: null; problems: TokenFormProblems };

/** The lifetime offered first: 30 days, or less when the server allows less. */
export const DEFAULT_TOKEN_DAYS = 30;

export function initialTokenForm(maxDays: number): TokenFormValues {
  return { name: "", scope: "read", expiresInDays: String(Math.min(DEFAULT_TOKEN_DAYS, maxDays)) };
}

/** The hint under the lifetime field, and its message when exceeded. */
export const maxDaysText = (maxDays: number) => `at most ${maxDays} days`;

/**
 * The request to send, or the message of each field that keeps the form from being sent: the
 * contract's own rules (so the texts match the server's), plus the server's longest lifetime.
 */
export function checkTokenForm(values: TokenFormValues, maxDays: number): TokenFormCheck {
  const daysText = values.expiresInDays.trim();
  const parsed = CreateApiTokenRequest.safeParse({
    name: values.name,
    scope: values.scope,
    expiresInDays: daysText === "" ? Number.NaN : Number(daysText),
  });
  if (parsed.success) {
    if (parsed.data.expiresInDays <= maxDays) return { request: parsed.data, problems: null };
    return { request: null, problems: { expiresInDays: maxDaysText(maxDays) } };
  }
  const problems: TokenFormProblems = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as TokenFormField;
    if (field !== "expiresInDays") problems[field] ??= issue.message;
    else if (daysText === "") problems.expiresInDays = "required field";
    else problems.expiresInDays ??= issue.code === "too_small" ? issue.message : "whole days only";
  }
  return { request: null, problems };
}
