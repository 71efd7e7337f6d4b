import type { OidcErrorCode } from "@ledgerline/contract";

/** Why a company sign-in failed, per code of /login?error=<code>. */
const REASONS: Record<OidcErrorCode, string> = {
  expired: "the sign-in took too long or was already used; please try again",
  state: "the answer did not belong to the sign-in started here",
  denied: "the provider did not allow it",
  code: "the provider did not accept the sign-in code (used twice or too old)",
  audience: "the answer was not meant for this application",
  issuer: "the answer did not come from the configured provider",
  signature: "the identity token's signature is not valid",
  token_expired: "the identity token has expired (check the server's clock)",
  nonce: "the identity token belongs to another sign-in",
  claims: "the provider did not send a username",
  conflict: "an account with this username already exists here; please ask an administrator",
  removed: "your account has been removed; please ask an administrator",
  unavailable: "the provider cannot be reached; please try again later",
  failed: "the answer could not be checked",
};

/** The danger alert's text for a refused company sign-in; an unknown code gets the generic reason. */
export function oidcFailureMessage(code: string, label: string): string {
  const reason = (REASONS as Record<string, string>)[code] ?? REASONS.failed;
  return `Sign-in with ${label} failed: ${reason}`;
}
