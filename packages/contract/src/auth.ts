import { z } from "zod";

/** The sign-in form, posted as application/x-www-form-urlencoded. */
export const LoginForm = z.object({
  username: z
    .string({ error: (issue) => (issue.input === undefined ? "Username is required" : undefined) })
    .trim()
    .min(1, "Username is required")
    .max(256),
  password: z
    .string({ error: (issue) => (issue.input === undefined ? "Password is required" : undefined) })
    .min(1, "Password is required")
    .max(256),
});
export type LoginForm = z.infer<typeof LoginForm>;

/** The signed-in user's profile, kept by the client in local storage. */
export const Profile = z.object({
  name: z.string(),
  username: z.string(),
  email: z.string(),
  isadmin: z.boolean(),
  isdev: z.boolean(),
  issuperadmin: z.boolean(),
});
export type Profile = z.infer<typeof Profile>;
