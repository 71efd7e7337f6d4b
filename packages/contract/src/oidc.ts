import { z } from "zod";
import { MsgBody } from "./common.ts";

/**
 * Why a company sign-in was refused; the callback answers a redirect to `/login?error=<code>` and the
 * login page explains it.
 */
export const OidcErrorCode = z.enum([
  "expired",
  "state",
  "denied",
  "code",
  "audience",
  "issuer",
  "signature",
  "token_expired",
  "nonce",
  "claims",
  "conflict",
  "removed",
  "unavailable",
  "failed",
]);
export type OidcErrorCode = z.infer<typeof OidcErrorCode>;

/** Company sign-in as the login page needs it (in /app-config.json; absent when it is off). */
export const OidcLoginOptions = z.object({
  /** The button reads 'Sign in with <label>'. */
  label: z.string(),
  /** The password form shows only at /login?local=1 (super administrators). */
  only: z.boolean(),
});
export type OidcLoginOptions = z.infer<typeof OidcLoginOptions>;

/** Query of GET /auth/oidc/login: where to go once signed in (a path of this site). */
export const OidcLoginQuery = z.object({ next: z.string().max(2000).optional() });
export type OidcLoginQuery = z.infer<typeof OidcLoginQuery>;

/** Query of GET /auth/oidc/callback: the provider's authorization response. */
export const OidcCallbackQuery = z.object({
  code: z.string().max(4000).optional(),
  state: z.string().max(4000).optional(),
  iss: z.string().max(2000).optional(),
  error: z.string().max(200).optional(),
  error_description: z.string().max(2000).optional(),
});
export type OidcCallbackQuery = z.infer<typeof OidcCallbackQuery>;

/** Answer of POST /auth/logout: after a company sign-in, also where the browser signs out at the provider. */
export const LogoutResponse = MsgBody.extend({ endSessionUrl: z.string().url().optional() });
export type LogoutResponse = z.infer<typeof LogoutResponse>;

/**
 * The path to return to after signing in: a path of this site, or "/" for anything else (another
 * site, `//host`, a backslash trick, the sign-in pages themselves).
 */
export function safeReturnPath(candidate: string | null | undefined): string {
  if (!candidate || candidate.length > 2000) return "/";
  if (!candidate.startsWith("/") || candidate.startsWith("//") || candidate.includes("\\"))
    return "/";
  if ([...candidate].some((ch) => ch.charCodeAt(0) < 0x20)) return "/";
  if (candidate === "/login" || candidate.startsWith("/login?") || candidate.startsWith("/auth/"))
    return "/";
  return candidate;
}
