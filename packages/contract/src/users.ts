import { z } from "zod";

/** Password length limits (DESIGN.md section 11); no composition rules. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

// SPEC.md section 5 words the messages of the user forms; the server answers the same ones.
const REQUIRED = "required field";

/** The longest username: of an account made here or at a first company sign-in. */
export const USERNAME_MAX = 64;

/** Text that must not be empty once trimmed; a missing value answers 'required field' too. */
function requiredText(max: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? REQUIRED : "must be text") })
    .trim()
    .min(1, REQUIRED)
    .max(max, `at most ${max} characters`);
}

/** A user as the administration screens list it; never the password. */
export const UserSummary = z.object({
  username: z.string(),
  name: z.string(),
  email: z.string(),
  isadmin: z.boolean(),
});
export type UserSummary = z.infer<typeof UserSummary>;

/** Active users, ordered by username. */
export const UserList = z.array(UserSummary);
export type UserList = z.infer<typeof UserList>;

/**
 * The name of a user who exists: up to what company sign-in once accepted (256), so that an
 * account made with a longer name than USERNAME_MAX can still be edited and removed.
 */
const EXISTING_USERNAME = requiredText(256);

/** POST /api/createuser. Only super administrators may send isadmin true. */
export const CreateUserRequest = z.object({
  username: requiredText(USERNAME_MAX),
  name: requiredText(256),
  email: requiredText(256),
  password: z.string({ error: REQUIRED }),
  isadmin: z.boolean().optional(),
});
export type CreateUserRequest = z.infer<typeof CreateUserRequest>;

/**
 * POST /api/updateuser: the user named by username gets the other fields. A null (or absent)
 * password keeps the current one; an absent isadmin keeps the current right.
 */
export const UpdateUserRequest = z.object({
  username: EXISTING_USERNAME,
  name: requiredText(256),
  email: requiredText(256),
  password: z.string().nullable().optional(),
  isadmin: z.boolean().optional(),
});
export type UpdateUserRequest = z.infer<typeof UpdateUserRequest>;

/** POST /api/removeuser. */
export const RemoveUserRequest = z.object({ username: EXISTING_USERNAME });
export type RemoveUserRequest = z.infer<typeof RemoveUserRequest>;
