import { z } from "zod";

/** POST /api/account/profile: the signed-in user's own account, as the 'My account' page shows it. */
export const AccountProfile = z.object({
  username: z.string(),
  name: z.string(),
  email: z.string(),
  /**
   * True for an account made by company sign-in (OIDC): it has no password here, and its e-mail
   * address comes from the company's directory at each sign-in.
   */
  companySignIn: z.boolean(),
});
export type AccountProfile = z.infer<typeof AccountProfile>;

/** The password the caller signs in with now: as the sign-in form accepts it (DESIGN.md section 11). */
const CurrentPassword = z
  .string({ error: "Current password is required" })
  .min(1, "Current password is required")
  .max(256);

/**
 * POST /api/account/password. The new password's rules (length, not breached) are the server's,
 * answered with their own message; the length is bounded here only so that no huge text is read.
 */
export const ChangePasswordRequest = z.object({
  currentPassword: CurrentPassword,
  newPassword: z.string({ error: "New password is required" }).max(10_000),
});
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;

/** An e-mail address a user may give their own account. */
export const AccountEmail = z
  .string({ error: "E-mail address is required" })
  .trim()
  .min(1, "E-mail address is required")
  .max(256, "at most 256 characters")
  .pipe(z.email("Enter an e-mail address such as name@example.com"));

/** POST /api/account/email: answers the account as it now is. */
export const ChangeEmailRequest = z.object({
  currentPassword: CurrentPassword,
  email: AccountEmail,
});
export type ChangeEmailRequest = z.infer<typeof ChangeEmailRequest>;
