// fxa-common-password-list ships no types; this declares the one function password-policy.ts uses.
declare module "fxa-common-password-list" {
  /** True when the password is in the list, which holds lower-case entries only. */
  export function test(password: string): boolean;
}
