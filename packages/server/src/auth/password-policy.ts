import { passwordProblem } from "./password.ts";

export const BREACHED_PASSWORD =
  "This password appears in a list of breached passwords; choose another";

interface PasswordList {
  test(password: string): boolean;
}

let breachedList: Promise<PasswordList> | undefined;

/**
 * Whether the password, in any mix of upper and lower case, is among the 50,000 most common
 * passwords of at least 8 characters in published breaches (fxa-common-password-list, Mozilla's
 * list for Firefox Accounts, drawn from the SecLists breach compilation). The list ships in the
 * package: nothing is fetched, and no password leaves the server.
 */
export async function isBreachedPassword(password: string): Promise<boolean> {
  // Loaded at the first check: decoding the list takes about 60 ms that a start need not spend.
  breachedList ??= import("fxa-common-password-list");
  // The list holds lower case only: 'Password1' is as guessable as 'password1'.
  return (await breachedList).test(password.toLowerCase());
}

/**
 * The rules for every new password, wherever it is set (My account, user administration, the
 * CLI): the length of DESIGN.md section 11, then the breached list. A message, or undefined.
 */
export async function newPasswordProblem(password: string): Promise<string | undefined> {
  const problem = passwordProblem(password);
  if (problem) return problem;
  return (await isBreachedPassword(password)) ? BREACHED_PASSWORD : undefined;
}
